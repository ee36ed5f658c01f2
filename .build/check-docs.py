#!/usr/bin/env python3
"""Checks the repository's Markdown against the tree: every relative link names a file that exists
and, with a #fragment, a heading of that file (GitHub's anchor rules); every setting named
spark.shuffle.kae.* is one of docs/configuration.md (generated from the code); every class named
under io.github.kaeshuffle or org.apache.spark.shuffle.kae is defined in the sources; every jar of
ours named (kae-shuffle-spark<line>_<scala>-<version>.jar, kae-shuffle-service-...-yarn.jar) is
one the build makes: a line pom.xml has a profile for, that line's Scala, the project's version
(or a <placeholder>). Prints each problem; exit 1 if any.
   usage: .build/check-docs.py [repository root]"""
import os
import re
import subprocess
import sys

LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
FENCE = re.compile(r'^\s*(```|~~~)')


def anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r'`|\*\*|__', '', heading).strip().lower()
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def lines_outside_code(path):
    fenced = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield line


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        found = set()
        for line in lines_outside_code(path):
            m = HEADING.match(line)
            if m:
                a = anchor(m.group(2))
                n = seen.get(a, 0)
                seen[a] = n + 1
                found.add(a if n == 0 else f'{a}-{n}')
        cache[path] = found
    return cache[path]


SETTING = re.compile(r'(?<![\w.])spark\.shuffle\.kae\.(?:[a-z][A-Za-z0-9]*\.?)*[A-Za-z0-9]')
LITERAL = re.compile(r'"(spark\.shuffle\.kae\.[A-Za-z0-9.]+)"')
CLASS = re.compile(r'\b(?:io\.github\.kaeshuffle|org\.apache\.spark\.shuffle\.kae)(?:\.[a-z0-9_]+)*'
                   r'\.([A-Z]\w*)')
DEFINITION = re.compile(r'\b(?:class|object|trait|interface|enum)\s+([A-Z]\w*)')
JAR = re.compile(r'\bkae-shuffle-[\w.<>-]*?\.jar\b')
# The application, service and (in the release bundle) doctor jars named for their line.
BUILT_JAR = re.compile(r'^kae-shuffle-(service-|doctor-)?spark(<line>|[0-9.]+)_(<scala>|2\.1[23])'
                       r'-(<version>|[0-9][\w.-]*?)(-yarn)?\.jar$')


def builds(root):
    """The (line, Scala) pairs pom.xml's profiles build and the project's version."""
    with open(os.path.join(root, 'pom.xml'), encoding='utf-8') as f:
        pom = f.read()
    version = re.search(r'<artifactId>kae-shuffle-parent</artifactId>\s*<version>([^<]+)', pom)
    lines = set(re.findall(r'<id>spark-([0-9.]+)</id>', pom))
    pairs = {(line, '2.13') for line in lines} | {('3.5', '2.12')}
    return pairs, version.group(1) if version else None


def check_jars(rel, text, pairs, version):
    problems = []
    for name in sorted(set(JAR.findall(text))):
        doctor = re.match(r'^kae-shuffle-doctor-(<version>|[0-9][\w.-]*?)\.jar$', name)
        if doctor:
            if '<' not in doctor.group(1) and doctor.group(1) != version:
                problems.append(f'{rel}: jar {name}: the version is {version}')
            continue
        m = BUILT_JAR.match(name)
        if not m:
            problems.append(f'{rel}: jar {name}: not a name the build gives')
            continue
        kind, line, scala, ver, yarn = m.groups()
        if (kind == 'service-') != bool(yarn):
            problems.append(f'{rel}: jar {name}: the service jar, and only it, ends in -yarn')
        if '<' not in line + scala and (line, scala) not in pairs:
            problems.append(f'{rel}: jar {name}: no build of Spark {line} with Scala {scala}')
        if '<' not in ver and ver != version:
            problems.append(f'{rel}: jar {name}: the version is {version}')
    return problems


def settings(root, sources):
    """The keys of docs/configuration.md's tables (the application's settings, generated from the
    code) and the keys the main sources name as literals (the NodeManager service's)."""
    keys = set()
    for rel in sources:
        if '/src/main/' in rel:
            with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
                keys.update(LITERAL.findall(f.read()))
    for line in lines_outside_code(os.path.join(root, 'docs', 'configuration.md')):
        m = re.match(r'^\| `(spark\.shuffle\.kae\.[^`]+)`', line)
        if m:
            keys.add(m.group(1))
    return keys


def defined_types(root, files):
    names = set()
    for rel in files:
        with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
            names.update(DEFINITION.findall(f.read()))
    return names


def check_names(root, rel, text, keys, types):
    problems = []
    for key in sorted(set(SETTING.findall(text))):
        if key not in keys and not any(k.startswith(key + '.') for k in keys):
            problems.append(f'{rel}: setting {key}: not in docs/configuration.md')
    for name in sorted(set(CLASS.findall(text))):
        if name not in types:
            problems.append(f'{rel}: class {name}: not defined in the sources')
    return problems


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
    files = subprocess.run(['git', '-C', root, 'ls-files', '-co', '--exclude-standard', '*.md'],
                           capture_output=True, text=True, check=True).stdout.split()
    sources = subprocess.run(['git', '-C', root, 'ls-files', '-co', '--exclude-standard',
                              '*.java', '*.scala'], capture_output=True, text=True,
                             check=True).stdout.split()
    sources = [s for s in sources if os.path.exists(os.path.join(root, s))]
    keys = settings(root, sources)
    types = defined_types(root, sources)
    pairs, version = builds(root)
    broken = []
    for rel in files:
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        with open(path, encoding='utf-8') as f:
            text = f.read()
        broken += check_names(root, rel, text, keys, types)
        if not rel.startswith('docs/benchmarks/'):  # pages keep the names of their run
            broken += check_jars(rel, text, pairs, version)
        for number, line in enumerate(lines_outside_code(path), 1):
            for target in LINK.findall(line):
                if re.match(r'^[a-z][a-z0-9+.-]*:', target):
                    continue  # http:, https:, mailto:
                file_part, _, fragment = target.partition('#')
                dest = path if not file_part else os.path.normpath(
                    os.path.join(os.path.dirname(path), file_part))
                if not os.path.exists(dest):
                    broken.append(f'{rel}: {target}: no such file')
                elif fragment and dest.endswith('.md') and fragment not in anchors(dest):
                    broken.append(f'{rel}: {target}: no heading #{fragment}')
    for b in broken:
        print(b)
    print(f'[kae] docs: {len(files)} Markdown files, {len(broken)} problems')
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
