# shellcheck shell=bash
# Shared by bin/kafka-local and bin/kafka-native-perf: the Kafka 4.2.1 jars (broker and tools), fetched from Maven
# Central through build-support/kafka-local/pom.xml, and the JVM options of the Kafka processes. Sourced after
# common.sh, never run.
KAFKA_LOCAL_SUPPORT="$XD_HOME/build-support/kafka-local"
KAFKA_LOCAL_LIBS="$KAFKA_LOCAL_SUPPORT/target/libs"
KAFKA_LOCAL_CLASSPATH="$KAFKA_LOCAL_LIBS/*"

# The broker's JVM, unless KAFKA_BROKER_JAVA_OPTS is set: Kafka's own default heap (kafka-server-start.sh) and GC
# settings (kafka-run-class.sh), the heap fixed and touched at start-up for the reason given in common.sh.
KAFKA_BROKER_JAVA_OPTS="${KAFKA_BROKER_JAVA_OPTS:--Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
-XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true}"
# The tools' JVM (ProducerPerformance, ConsumerPerformance, TopicCommand, StorageTool), unless KAFKA_TOOLS_JAVA_OPTS
# is set: the 512 MiB heap of Kafka's producer-perf-test.sh, fixed and touched at start-up.
KAFKA_TOOLS_JAVA_OPTS="${KAFKA_TOOLS_JAVA_OPTS:--Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
-XX:InitiatingHeapOccupancyPercent=35 -Djava.awt.headless=true}"

# kafka_tool CLASS ARG...: runs one of Kafka's command-line classes, logging warnings to stderr.
kafka_tool() {
  # shellcheck disable=SC2086
  "$(xd_java)" $KAFKA_TOOLS_JAVA_OPTS -Dlog4j2.configurationFile="$KAFKA_LOCAL_SUPPORT/tools-log4j2.xml" \
    -cp "$KAFKA_LOCAL_CLASSPATH" "$@"
}

# kafka_libs_if_needed: copies the Kafka jars into $KAFKA_LOCAL_LIBS unless they are there and the pom has not
# changed since. Maven runs under the same lock as every other Maven build on this machine (XD_MVN_LOCK).
kafka_libs_if_needed() {
  local done_marker="$KAFKA_LOCAL_LIBS/.copied"
  if [ -f "$done_marker" ] && [ ! "$KAFKA_LOCAL_SUPPORT/pom.xml" -nt "$done_marker" ]; then
    return 0
  fi
  echo "Fetching the Kafka 4.2.1 jars through Maven into ${KAFKA_LOCAL_LIBS#"$XD_HOME"/} (once)..." >&2
  # a stale directory may hold jars of other versions, which would sit on the classpath beside the new ones
  rm -rf "$KAFKA_LOCAL_LIBS"
  local mvn=(./mvnw -B -q -ntp -f build-support/kafka-local/pom.xml dependency:copy-dependencies
    "-DoutputDirectory=$KAFKA_LOCAL_LIBS")
  if command -v flock >/dev/null; then
    mvn=(flock "${XD_MVN_LOCK:-/tmp/xd-mvn.lock}" "${mvn[@]}")
  fi
  (cd "$XD_HOME" && "${mvn[@]}") >&2
  touch "$done_marker"
}
