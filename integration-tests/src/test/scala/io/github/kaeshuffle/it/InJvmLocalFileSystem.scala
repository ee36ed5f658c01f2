/*
 * Copyright 2026 The KAE Shuffle authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software distributed under the License
 * is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express
 * or implied. See the License for the specific language governing permissions and limitations under
 * the License.
 */
package io.github.kaeshuffle.it

import java.nio.file.Files
import java.nio.file.attribute.PosixFilePermissions

import org.apache.hadoop.fs.{LocalFileSystem, Path, RawLocalFileSystem}
import org.apache.hadoop.fs.permission.FsPermission

/**
 * Hadoop's local file system, setting permissions in the JVM. Without Hadoop's native library
 * (not shipped with Spark), it forks `chmod` for every file it creates, and the state store
 * creates two per partition per micro-batch: at the soak's 200 partitions those forks set its
 * pace. Named by `spark.hadoop.fs.file.impl` in [[Soak.settings]].
 */
class InJvmLocalFileSystem extends LocalFileSystem(new InJvmLocalFileSystem.Raw)

object InJvmLocalFileSystem {
  class Raw extends RawLocalFileSystem {
    override def setPermission(p: Path, permission: FsPermission): Unit = {
      val symbolic = Seq(
        permission.getUserAction,
        permission.getGroupAction,
        permission.getOtherAction).map(_.SYMBOL).mkString
      Files.setPosixFilePermissions(pathToFile(p).toPath, PosixFilePermissions.fromString(symbolic))
    }
  }
}
