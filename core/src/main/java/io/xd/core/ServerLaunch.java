package io.xd.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How a process started from a build (the tests, the benchmark runner) runs an XD server: the arguments after
 * {@code java} and its JVM options, before the server's mode. The build of the server module leaves two forms of it
 * in {@code server/target}: {@code xd.jar}, one jar with the others nested in it, and {@code xd/}, the same extracted
 * ({@code xd/xd.jar} beside {@code xd/lib/}) with {@code xd/xd.jsa}, a class data sharing archive of the classes a
 * singlenode loads while it starts. The extracted form with its archive starts a server in about 40% of the time.
 * It is used when its archive is not older than {@code xd.jar} (every package of the server removes the previous
 * {@code xd/} first, so a build with {@code -Dxd.cds.skip} leaves none); the JVM itself checks that the archive matches it and the jars, and does without it, silently,
 * when it does not (another JDK, say). {@code bin/lib/common.sh} applies the same rule for the scripts in
 * {@code bin/}.
 */
public final class ServerLaunch {

	private ServerLaunch() {
	}

	/**
	 * The arguments that run the server built in {@code serverTarget} (a build's {@code server/target}):
	 * {@code -XX:SharedArchiveFile=... -Xlog:cds=off -jar .../xd/xd.jar}, or {@code -jar .../xd.jar}.
	 */
	public static List<String> jarArguments(Path serverTarget) {
		Path jar = serverTarget.resolve("xd.jar").toAbsolutePath();
		Path extracted = serverTarget.resolve("xd").toAbsolutePath();
		Path archive = extracted.resolve("xd.jsa");
		if (current(archive, jar) && Files.isRegularFile(extracted.resolve("xd.jar"))) {
			return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-jar",
					extracted.resolve("xd.jar").toString());
		}
		return List.of("-jar", jar.toString());
	}

	private static boolean current(Path archive, Path jar) {
		try {
			return Files.isRegularFile(archive)
					&& (!Files.exists(jar) || Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) >= 0);
		}
		catch (IOException ex) {
			return false;
		}
	}

}
