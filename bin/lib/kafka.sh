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

# Class data sharing, as for XD's servers (docs/kafka-local.md#class-data-sharing): the first run of the broker, or of
# a tool, after the jars were fetched leaves an archive of the classes it loaded (the broker when `bin/kafka-local
# stop` stops it), one per program and JVM (an archive only fits the JVM that made it); every later run maps it
# instead of loading those classes from the jars again.

# kafka_archive NAME: prints the path of NAME's archive (broker, or a tool's class) for the JVM that runs it (xd_java).
kafka_archive() {
  local java
  java="$(command -v "$(xd_java)" || echo "$(xd_java)")"
  echo "$KAFKA_LOCAL_LIBS/$1-$(readlink -f "$java" | cksum | cut -d' ' -f1).jsa"
}

# kafka_archive_options NAME NEW: sets the array KAFKA_ARCHIVE_OPTIONS to NAME's class data sharing options: map its
# archive when there is one newer than the jars, else write one to NEW when the JVM exits (for the caller to move into
# place).
KAFKA_ARCHIVE_OPTIONS=()
kafka_archive_options() {
  local archive
  archive="$(kafka_archive "$1")"
  if [ -s "$archive" ] && ! [ "$KAFKA_LOCAL_LIBS/.copied" -nt "$archive" ]; then
    KAFKA_ARCHIVE_OPTIONS=("-XX:SharedArchiveFile=$archive" -Xlog:cds=off)
  else
    KAFKA_ARCHIVE_OPTIONS=("-XX:ArchiveClassesAtExit=$2" -Xlog:cds=off)
  fi
}

# kafka_keep_archive NAME NEW: moves the archive a JVM wrote to NEW into place as NAME's, if it wrote one.
kafka_keep_archive() {
  if [ -s "$2" ]; then
    mv -f "$2" "$(kafka_archive "$1")"
  else
    rm -f "$2"
  fi
}

# kafka_tool CLASS ARG...: runs one of Kafka's command-line classes, logging warnings to stderr; exits as it does.
kafka_tool() {
  local name="${1##*.}" new rc=0
  new="$KAFKA_LOCAL_LIBS/$name.$BASHPID.jsa.new"
  kafka_archive_options "$name" "$new"
  # shellcheck disable=SC2086
  "$(xd_java)" $KAFKA_TOOLS_JAVA_OPTS "${KAFKA_ARCHIVE_OPTIONS[@]}" \
    -Dlog4j2.configurationFile="$KAFKA_LOCAL_SUPPORT/tools-log4j2.xml" -cp "$KAFKA_LOCAL_CLASSPATH" "$@" || rc=$?
  if [ "$rc" -eq 0 ]; then
    kafka_keep_archive "$name" "$new"
  else
    rm -f "$new"
  fi
  return "$rc"
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
