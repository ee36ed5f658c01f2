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
package org.apache.spark.shuffle.kae

import java.lang.reflect.Field

import scala.util.Try

import org.apache.spark.internal.Logging
import org.apache.spark.serializer.Serializer
import org.apache.spark.util.AccumulatorV2

/**
 * The two private fields of Spark SQL's `UnsafeRowSerializer` that let the writer and the reader
 * handle SQL rows without the serializer's streams: the row width (`numFields`) and the exchange's
 * data-size metric (`dataSize`), both constructor fields from 3.5 to 4.3. The only place that
 * reaches into that class; where a field cannot be read, the serializer's own streams are used
 * for that side (logged once).
 */
private[spark] object SqlRowSerializerFields extends Logging {

  private val ClassName = "org.apache.spark.sql.execution.UnsafeRowSerializer"

  private lazy val numFields = field("numFields", "read through the serializer's deserializer")
  private lazy val dataSize = field("dataSize", "written through the serializer's streams")

  /** The row width, when `serializer` is SQL's row serializer and the field is readable. */
  def rowFields(serializer: Serializer): Option[Int] =
    if (!isSqlRows(serializer)) None else numFields.map(_.getInt(serializer))

  /** The exchange's data-size metric, when `serializer` is SQL's and the field is readable. */
  def dataSizeMetric(serializer: Serializer): Option[AccumulatorV2[Long, Long]] =
    if (!isSqlRows(serializer)) None
    else dataSize.map(_.get(serializer).asInstanceOf[AccumulatorV2[Long, Long]])

  private def isSqlRows(serializer: Serializer): Boolean =
    serializer.getClass.getName == ClassName

  private def field(name: String, otherwise: String): Option[Field] = Try {
    val f = Class.forName(ClassName).getDeclaredField(name)
    f.setAccessible(true)
    f
  }.recover { case e =>
    logWarning(s"$ClassName.$name is not readable here: SQL rows are $otherwise", e)
    throw e
  }.toOption
}
