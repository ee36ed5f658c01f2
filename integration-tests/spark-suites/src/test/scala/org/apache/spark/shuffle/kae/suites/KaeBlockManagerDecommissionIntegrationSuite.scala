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
package org.apache.spark.shuffle.kae.suites

import io.github.kaeshuffle.testing.MatrixSuite

import org.apache.spark.storage.BlockManagerDecommissionIntegrationSuite

/**
 * Spark's `BlockManagerDecommissionIntegrationSuite` (executors decommissioned in
 * local-cluster while jobs run, their shuffle files and cached blocks migrated to the others and
 * read from there, migrated files cleaned up). Its SparkConfs load the system properties, where
 * this module's build sets spark.shuffle.manager to ours. In the matrix: a local-cluster per test.
 */
class KaeBlockManagerDecommissionIntegrationSuite
  extends BlockManagerDecommissionIntegrationSuite with KaeShuffleInUse with MatrixSuite
