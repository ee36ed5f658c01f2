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

import scala.collection.mutable
import scala.collection.mutable.ArrayBuffer

import org.apache.spark.SparkConf
import org.apache.spark.internal.config.{ConfigBuilder, ConfigEntry, TypedConfigBuilder}

/**
 * How settings under one prefix are declared: each a Spark config entry, registered in declaration
 * order as it is created, with what its check accepts written down in the check's own words for
 * the generated docs; and what an application's settings are checked against (unknown keys,
 * values that differ from the defaults). [[KaeShuffleConf]] declares the settings themselves.
 */
private[spark] abstract class ConfDeclarations(val PREFIX: String) {
  private val entries = ArrayBuffer[ConfigEntry[_]]()

  /** What each setting accepts, as its check says it: configuration.md's "accepts" column. */
  private val accepted = mutable.LinkedHashMap[String, String]()

  protected implicit class Accepts[T](b: TypedConfigBuilder[T]) {

    /** Spark's checkValue, whose message ("Use 1k to 8m.") is also the docs' column. */
    def accepts(valid: T => Boolean, message: String): TypedConfigBuilder[T] = {
      accepted(b.parent.key) = message.stripPrefix("Use ").stripPrefix("Give ").stripSuffix(".")
      b.checkValue(valid, message)
    }

    /** For a value checked with others (a codec's level, by the codec): the docs' column only. */
    def acceptsCheckedBy(text: String): TypedConfigBuilder[T] = {
      accepted(b.parent.key) = text
      b
    }
  }

  protected implicit class AcceptsOneOf(b: TypedConfigBuilder[String]) {

    /** Spark's checkValues, the values listed in the docs' column. */
    def acceptsOneOf(values: Seq[String]): TypedConfigBuilder[String] = {
      accepted(b.parent.key) = values.map(v => s"`$v`").mkString(", ")
      b.checkValues(values.toSet)
    }
  }

  protected def entry(key: String): ConfigBuilder =
    ConfigBuilder(PREFIX + key).version("0.1.0").onCreate(e => entries += e)

  /** All entries, in declaration order. */
  def all: Seq[ConfigEntry[_]] = entries.toSeq

  /** Keys under the prefix that no entry declares: almost always typos. */
  def unknownKeys(conf: SparkConf): Seq[String] = {
    val known = all.map(_.key).toSet
    conf.getAll.map(_._1).filter(k => k.startsWith(PREFIX) && !known.contains(k)).sorted.toSeq
  }

  /**
   * The application's settings under the prefix whose value differs from the default as written
   * (a setting spelled as its default, `codec=auto`, is left out; unknown keys are kept).
   */
  def differFromDefaults(conf: SparkConf): Map[String, String] = {
    val defaults = all.map(e => e.key -> e.defaultValueString).toMap
    conf.getAll.filter { case (k, v) =>
      k.startsWith(PREFIX) && !defaults.get(k).exists(_.equalsIgnoreCase(v.trim))
    }.toMap
  }

  /** What `e` accepts: its check's own words, else by its type. */
  private[kae] def accepts(e: ConfigEntry[_]): String =
    accepted.getOrElse(
      e.key,
      e.defaultValueString match {
        case "true" | "false" => "`true`, `false`"
        case _ => "any"
      })
}
