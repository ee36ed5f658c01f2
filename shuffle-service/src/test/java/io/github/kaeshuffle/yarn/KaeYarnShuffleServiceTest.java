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
package io.github.kaeshuffle.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The class the NodeManager loads, alone: the Java check names both versions, and a line service
 * that cannot load leaves the NodeManager up or stops it as {@code stopOnFailure} says.
 */
class KaeYarnShuffleServiceTest {
  private static final int RUNNING =
      (int) Double.parseDouble(System.getProperty("java.class.version"));

  @Test
  void classFilesOfThisJavaOrOlderPass() throws IOException {
    KaeYarnShuffleService.checkJava(52);
    KaeYarnShuffleService.checkJava(RUNNING);
    assertTrue(KaeYarnShuffleService.classFileMajor(KaeYarnShuffleService.SPARK_CLASS) <= RUNNING);
  }

  @Test
  void classFilesOfANewerJavaFailNamingBothVersions() {
    UnsupportedOperationException e =
        assertThrows(
            UnsupportedOperationException.class,
            () -> KaeYarnShuffleService.checkJava(RUNNING + 1));
    String running = System.getProperty("java.specification.version");
    assertTrue(
        e.getMessage()
            .contains(
                "need Java "
                    + (RUNNING + 1 - 44)
                    + " or newer, and the NodeManager runs Java "
                    + running),
        e.getMessage());
  }

  @Test
  void aClassMissingFromTheJarIsNamed() {
    IOException e =
        assertThrows(
            IOException.class, () -> KaeYarnShuffleService.classFileMajor("no/Such.class"));
    assertTrue(e.getMessage().contains("no/Such.class is not in the service jar"), e.getMessage());
  }

  private static KaeYarnShuffleService unloadable() {
    return new KaeYarnShuffleService("spark_shuffle", "io.github.kaeshuffle.yarn.NoSuchService");
  }

  @Test
  void aLineServiceThatCannotLoadServesNothingWhenTheNodeManagerShouldStayUp() {
    KaeYarnShuffleService service = unloadable();
    Configuration conf = new Configuration(false);
    conf.setBoolean(KaeYarnShuffleService.STOP_ON_FAILURE, false);
    service.init(conf);
    service.start();
    assertEquals(-1, service.port());
    assertEquals(-1, service.getMetaData().getInt(0));
    service.stop();
  }

  @Test
  void aLineServiceThatCannotLoadStopsTheNodeManagerWhenAskedTo() {
    KaeYarnShuffleService service = unloadable();
    Configuration conf = new Configuration(false);
    conf.setBoolean(KaeYarnShuffleService.STOP_ON_FAILURE, true);
    Exception e = assertThrows(Exception.class, () -> service.init(conf));
    assertTrue(
        String.valueOf(e.getMessage())
            .contains("KAE shuffle service 'spark_shuffle' could not start"),
        String.valueOf(e));
  }

  @Test
  void withoutASiteFileTheServiceTakesSparksDefaultName() {
    assertEquals(KaeYarnShuffleService.DEFAULT_NAME, new KaeYarnShuffleService().getName());
  }
}
