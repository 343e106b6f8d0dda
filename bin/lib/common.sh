# Shared by the scripts in bin/: where the project is, and building its jars when they are missing or older than
# the sources. Sourced, never run.
XD_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
XD_SINGLENODE_JAR="$XD_HOME/server/target/xd.jar"
XD_SHELL_JAR="$XD_HOME/shell/target/xd-shell.jar"
XD_BENCHMARKS_JAR="$XD_HOME/benchmarks/target/benchmarks.jar"

# JVM options of an XD server when JAVA_OPTS is not set: a fixed heap, touched at start-up. A heap that grows while
# the stream runs costs a fresh page fault on every new page; on the virtual machines measured here that made
# direct binding at 1 000 bytes six times slower (1.5 M against 9-10 M msg/s). Objects that survive one young
# collection are promoted at the next (MaxTenuringThreshold=1): a stream's messages die within one, while the
# server's own objects (module contexts, meters, connections) live for good, and copying them between survivor
# spaces fifteen times made the first second of a fast stream's young pauses 10-20 ms instead of 2 ms.
XD_SERVER_JAVA_OPTS="-Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:MaxTenuringThreshold=1"

# The JVM options of `bin/xd-container --small`: a container for modest rates (1 000 msg/s of 8 KB over Kafka keeps
# its heap under 32 MB after GC; figures in docs/benchmarks.md#footprint). A small heap that grows on demand, the
# serial collector (no GC threads, no regions), the client compiler only (a smaller code cache, less compiler
# memory), smaller thread stacks and a bounded metaspace and direct memory. And one setting of the Kafka bus, as a
# system property: each Kafka producer keeps every batch buffer it ever needed in a pool up to buffer.memory (32 MB
# by default), which a burst at start-up fills and which then stays live for good; 2 MB is 0.25 s of 8 KB messages at
# 1 000 msg/s (a producer that outruns it waits, it loses nothing).
XD_SMALL_JAVA_OPTS="-Xms16m -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=32m \
-XX:MaxMetaspaceSize=128m -XX:MaxDirectMemorySize=32m -Xss512k -XX:+ExitOnOutOfMemoryError \
-Dxd.messagebus.kafka.producerProperties.buffer.memory=2097152"

# The server's fast-start form: the server module's build leaves beside xd.jar its extracted form, server/target/xd/
# (xd.jar and lib/), with xd.jsa, a class data sharing archive of what a singlenode loads while it starts; that starts
# a server in about 40% of the time (docs/singlenode.md#fast-start).
XD_FAST_START_ARCHIVE="$XD_HOME/server/target/xd/xd.jsa"

# xd_fast_start_current: whether the fast-start archive is there and not older than xd.jar (every package of the
# server removes the previous one first; xd_build_if_needed keeps it current after its touch). The same rule as
# io.xd.core.ServerLaunch, for the tests and the benchmark runner.
xd_fast_start_current() {
  [ -f "$XD_FAST_START_ARCHIVE" ] && ! [ "$XD_SINGLENODE_JAR" -nt "$XD_FAST_START_ARCHIVE" ]
}

# xd_server_jar: sets the array XD_SERVER_JAR to what runs the built server after `java` and its options: the
# fast-start form when current, xd.jar otherwise. The JVM checks that the archive fits it and the jars, and silently
# does without it when not (another JDK).
xd_server_jar() {
  if xd_fast_start_current && [ -f "$XD_HOME/server/target/xd/xd.jar" ]; then
    XD_SERVER_JAR=("-XX:SharedArchiveFile=$XD_FAST_START_ARCHIVE" -Xlog:cds=off -jar "$XD_HOME/server/target/xd/xd.jar")
  else
    XD_SERVER_JAR=(-jar "$XD_SINGLENODE_JAR")
  fi
}

# xd_stale_jar JAR...: prints the first JAR that is missing or older than a source or pom; fails if none is.
xd_stale_jar() {
  local jar
  for jar in "$@"; do
    if [ ! -f "$jar" ] || [ -n "$(find "$XD_HOME" -path "$XD_HOME/.git" -prune -o -path '*/target' -prune -o -path '*/src/test' -prune -o \
        \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$jar" -print -quit)" ]; then
      echo "$jar"
      return 0
    fi
  done
  return 1
}

# xd_build_if_needed JAR...: builds the project (no tests) unless every JAR exists and no source or pom is newer.
# Scripts started together build once: each waits for the build lock (target/.build.lock, where flock exists),
# then looks again.
xd_build_if_needed() {
  xd_stale_jar "$@" >/dev/null || return 0
  mkdir -p "$XD_HOME/target"
  (
    if command -v flock >/dev/null 2>&1; then
      exec 9>"$XD_HOME/target/.build.lock"
      flock 9
    fi
    stale="$(xd_stale_jar "$@")" || exit 0
    echo "Building XD (first run, or sources changed since $(basename "$stale") was built)..." >&2
    (cd "$XD_HOME" && ./mvnw -B -q -ntp install -DskipTests) >&2
    # Maven leaves an up-to-date jar untouched; mark every jar as newer than the sources it was just checked against,
    # and the server's class data sharing archive, if it was current (made after xd.jar by this build or the one
    # that made xd.jar), as still not older than xd.jar
    local current=""
    if xd_fast_start_current; then
      current=1
    fi
    touch "$@"
    if [ -n "$current" ]; then
      touch "$XD_FAST_START_ARCHIVE"
    fi
  )
}

# xd_port_open HOST PORT: whether something accepts TCP connections there (bash's /dev/tcp, no tools needed).
xd_port_open() {
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

# xd_free_port FROM TO: prints the first port from FROM to TO that nothing on 127.0.0.1 listens on; fails if none.
xd_free_port() {
  local port="$1"
  while xd_port_open 127.0.0.1 "$port"; do
    port=$((port + 1))
    [ "$port" -le "$2" ] || return 1
  done
  echo "$port"
}

# xd_java: the java command, from JAVA_HOME when set.
xd_java() {
  if [ -n "${JAVA_HOME:-}" ]; then
    echo "$JAVA_HOME/bin/java"
  else
    echo java
  fi
}

# xd_singlenode_start LOG JAVA_OPTS ARGS...: starts `java JAVA_OPTS -jar xd.jar ARGS` (xd_server_jar) in the
# background with its output in LOG, sets XD_SN_PID, and returns once it has logged "Started XdApplication". Fails,
# with the end of LOG, when the process dies first or does not finish starting within 120 s.
XD_SN_PID=""
xd_singlenode_start() {
  local log="$1" opts="$2"
  shift 2
  : >"$log" # exists before the first grep below, however late the background process opens it
  # shellcheck disable=SC2086
  xd_server_jar
  "$(xd_java)" $opts "${XD_SERVER_JAR[@]}" "$@" >>"$log" 2>&1 &
  XD_SN_PID=$!
  local deadline=$((SECONDS + 120))
  until grep -q "Started XdApplication" "$log"; do
    if ! kill -0 "$XD_SN_PID" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
      echo "singlenode did not start; the end of $log:" >&2
      tail -n 30 "$log" >&2
      return 1
    fi
    sleep 0.2
  done
}

# xd_singlenode_stop: SIGTERM to the singlenode of xd_singlenode_start, SIGKILL if it has not stopped after 30 s.
xd_singlenode_stop() {
  local pid="$XD_SN_PID" waited=0
  XD_SN_PID=""
  if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
    return 0
  fi
  kill "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 300 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "singlenode did not stop within 30 s; killing it" >&2
    kill -9 "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

# xd_shell_run URI [DATA_DIR]: runs the XD shell against URI with its commands from standard input; it stops at the
# first failing command, with exit status 1. With DATA_DIR (the server's xd.data.dir), the shell authenticates as the
# administrator the server created there (DATA_DIR/credentials.properties).
xd_shell_run() {
  if [ -n "${2:-}" ]; then
    XD_DATA_DIR="$2" "$(xd_java)" -jar "$XD_SHELL_JAR" --uri "$1"
  else
    "$(xd_java)" -jar "$XD_SHELL_JAR" --uri "$1"
  fi
}
