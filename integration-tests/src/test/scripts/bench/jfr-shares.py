#!/usr/bin/env python3
# Copyright 2026 The KAE Shuffle authors. Licensed under the Apache License, Version 2.0.
"""Where a query benchmark's CPU went, from a JFR recording taken with settings=profile.

Usage: jfr-shares.py <recording.jfr> [more.jfr ...]

Counts the samples of threads on a CPU (JFR's jdk.ExecutionSample for Java code, every 10 ms, and
jdk.NativeMethodSample for code in native methods, every 20 ms, so weighted 2) and puts each in
the first of these categories that its stack names, from the top frame down: KAE Shuffle's own
code, zstd-jni, lz4-java, Spark's shuffle (its writers, readers, fetcher, the serializer streams
and the buffered streams around them), else compute and the rest. A generated-code or SQL frame
met first ends the search as compute: the map side's whole computation runs under the shuffle
writer's frame, which must not take it; so does the benchmarks' own workload code (its package
names ours). Threads waiting (epoll, Netty's epoll, park, sleep) are left out.
"""
import collections
import re
import subprocess
import sys

WAITING = ('EPoll.wait', 'epollWait', 'Unsafe.park', 'Object.wait', 'Thread.sleep', 'accept0', 'poll0',
           'waitForProcessExit', 'socketRead0', 'readBytes(FileDescriptor')
CATEGORIES = [
    ('kae', ('io.github.kaeshuffle', 'org.apache.spark.shuffle.kae')),
    ('zstd-jni', ('com.github.luben.zstd',)),
    ('lz4-java', ('net.jpountz',)),
    ('spark-shuffle', ('org.apache.spark.shuffle.', 'ShuffleBlockFetcherIterator',
                       'DiskBlockObjectWriter', 'UnsafeRowSerializer', 'java.io.Buffered',
                       'java.io.DataOutputStream', 'java.io.DataInputStream',
                       'ShuffleExternalSorter', 'org.apache.spark.network.')),
]
COMPUTE = ('GeneratedClass', 'org.apache.spark.sql.', 'parquet', 'janino', 'codehaus',
           'io.github.kaeshuffle.workloads', 'io.github.kaeshuffle.deploy')
WEIGHT = {'ExecutionSample': 1, 'NativeMethodSample': 2}


def frames_of(event):
    m = re.search(r'stackTrace = \[(.*?)\n\s*\]', event, re.S)
    if not m:
        return []
    lines = (l.strip() for l in m.group(1).split('\n'))
    return [re.sub(r'\s+line:.*', '', l) for l in lines if l and not l.startswith('...')]


def category(frames):
    for frame in frames:
        if any(mark in frame for mark in COMPUTE):
            return 'compute and other'
        for name, marks in CATEGORIES:
            if any(mark in frame for mark in marks):
                return name
    return 'compute and other'


def shares(path):
    text = subprocess.run(
        ['jfr', 'print', '--events', 'jdk.ExecutionSample,jdk.NativeMethodSample',
         '--stack-depth', '64', path], capture_output=True, text=True, check=True).stdout
    counts, tops = collections.Counter(), collections.defaultdict(collections.Counter)
    for event in text.split('\njdk.')[1:]:
        kind = event.split(' ', 1)[0]
        frames = frames_of(event)
        if kind not in WEIGHT or not frames or any(w in frames[0] for w in WAITING):
            continue
        name = category(frames)
        counts[name] += WEIGHT[kind]
        tops[name][frames[0]] += WEIGHT[kind]
    return counts, tops


def main(paths):
    for path in paths:
        counts, tops = shares(path)
        total = sum(counts.values())
        print(f'{path}: {total} weighted samples on a CPU')
        for name, n in counts.most_common():
            print(f'  {n:7d} {100.0 * n / total:5.1f}%  {name}')
        for name, _ in CATEGORIES:
            for frame, n in tops[name].most_common(5):
                print(f'      {name:13s} {n:6d}  {frame[:110]}')


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
