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
package io.github.kaeshuffle.testing

import org.scalactic.source
import org.scalatest.Tag
import org.scalatest.funsuite.AnyFunSuite

/**
 * Which tests a build runs: the gate (README's test command, every change) or the full matrix
 * (`.build/test-matrix.sh`). The build passes `kae.tests` (`gate` unless the `matrix` profile is
 * on); a test JVM started without it, e.g. from an IDE, runs everything.
 */
object TestScope {
  val Property = "kae.tests"

  /** True where every test runs: the matrix, or a run outside the build. */
  def full: Boolean = sys.props.get(Property).forall(_ != "gate")

  /**
   * True on the line a build without a line profile makes, or outside the build. Tests that do
   * not depend on the Spark line run their full set there only.
   */
  def defaultLine: Boolean =
    sys.props.get("kae.tests.line") == sys.props.get("kae.tests.defaultLine")

  /** Shown after the name of a test the gate leaves out, where Surefire reports it skipped. */
  val MatrixOnly = " [matrix only]"

  /** Shown after the name of a test that runs in the matrix on the default line only. */
  val DefaultLineOnly = " [matrix, default line only]"
}

/**
 * For suites some of whose tests run in the full matrix only: `matrixTest` registers a test the
 * gate reports as skipped (named with [[TestScope.MatrixOnly]]), never one it drops unseen.
 */
trait MatrixTests extends AnyFunSuite {
  protected def matrixTest(name: String, tags: Tag*)(body: => Any)(implicit
      pos: source.Position): Unit = gateTestIf(false)(name, tags: _*)(body)(pos)

  /** A matrix test that does not depend on the Spark line: it runs on the default line only. */
  protected def defaultLineTest(name: String, tags: Tag*)(body: => Any)(implicit
      pos: source.Position): Unit =
    if (!TestScope.full) ignore(name + TestScope.MatrixOnly, tags: _*)(body)(pos)
    else if (TestScope.defaultLine) test(name, tags: _*)(body)(pos)
    else ignore(name + TestScope.DefaultLineOnly, tags: _*)(body)(pos)

  /** A test the gate runs where `inGate` holds (e.g. for one codec of several), else matrix only. */
  protected def gateTestIf(inGate: Boolean)(name: String, tags: Tag*)(body: => Any)(implicit
      pos: source.Position): Unit =
    if (inGate || TestScope.full) test(name, tags: _*)(body)(pos)
    else ignore(name + TestScope.MatrixOnly, tags: _*)(body)(pos)
}

/**
 * For suites that run in the full matrix only: every test is reported skipped in the gate, and,
 * with nothing to run, the suite's `beforeAll` (a cluster's start) does not run either.
 */
trait MatrixSuite extends NamedMatrixTests {
  override protected def inGate(testName: String): Boolean = false
}

/**
 * For suites whose tests a superclass registers (Spark's own suites): the tests `inGate` turns
 * down are reported skipped in the gate. A def, since the superclass registers its tests, and so
 * asks it, before this class's fields exist.
 */
trait NamedMatrixTests extends AnyFunSuite {
  protected def inGate(testName: String): Boolean

  override protected def test(name: String, tags: Tag*)(body: => Any)(implicit
      pos: source.Position): Unit =
    if (TestScope.full || inGate(name)) super.test(name, tags: _*)(body)(pos)
    else super.ignore(name + TestScope.MatrixOnly, tags: _*)(body)(pos)
}
