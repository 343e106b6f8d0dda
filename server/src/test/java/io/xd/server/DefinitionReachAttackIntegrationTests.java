package io.xd.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.server.AdminApi.Response;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stream definitions written to reach what the operator did not declare, by users of one role each and by the
 * administrator, on a real singlenode: each bypass class (encodings, backslashes, newlines, case, look-alike
 * characters, symbolic links, redirects, names that resolve to loopback) against each option that reaches the host.
 * Whatever the server answers, the host must show that nothing happened: no file outside the roots, no request to a
 * service the operator did not allow, and the server still answers.
 */
class DefinitionReachAttackIntegrationTests {

	@TempDir
	static Path work;

	private static SingleNode node;

	/** A service the operator allows ({@code localhost}), which redirects wherever it is asked to. */
	private static HttpServer allowed;

	/** A service on loopback the operator did not allow: no request may reach it. */
	private static HttpServer forbidden;

	private static final AtomicInteger FORBIDDEN_REQUESTS = new AtomicInteger();

	private static final AtomicInteger ALLOWED_REQUESTS = new AtomicInteger();

	private static Path root;

	private static Path outside;

	private static final List<String> ROLES = List.of("creator", "deployer", "viewer", "admin");

	@BeforeAll
	static void start() throws IOException {
		root = Files.createDirectories(work.resolve("exchange"));
		outside = Files.createDirectories(work.resolve("outside"));
		Files.writeString(outside.resolve("secret.txt"), "not for streams");
		Files.createSymbolicLink(root.resolve("link-out"), outside);
		forbidden = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
		forbidden.createContext("/", exchange -> {
			FORBIDDEN_REQUESTS.incrementAndGet();
			exchange.sendResponseHeaders(200, -1);
			exchange.close();
		});
		forbidden.start();
		allowed = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
		allowed.createContext("/", exchange -> {
			ALLOWED_REQUESTS.incrementAndGet();
			String to = exchange.getRequestURI().getQuery();
			exchange.getResponseHeaders().set("Location", (to == null) ? "/" : to.substring("to=".length()));
			exchange.sendResponseHeaders((to == null) ? 200 : 302, -1);
			exchange.close();
		});
		allowed.start();
		node = new SingleNode(work.resolve("node"), "--xd.modules.file.roots=" + root,
				"--xd.modules.http-client.allowed-hosts=localhost",
				"--xd.security.users.creator.password={noop}creator-secret", "--xd.security.users.creator.roles=VIEW,CREATE",
				"--xd.security.users.deployer.password={noop}deployer-secret",
				"--xd.security.users.deployer.roles=VIEW,DEPLOY", "--xd.security.users.viewer.password={noop}viewer-secret",
				"--xd.security.users.viewer.roles=VIEW", "--xd.security.users.admin.password={noop}admin-secret",
				"--xd.security.users.admin.roles=VIEW,CREATE,DEPLOY,DESTROY,MANAGE");
	}

	@AfterAll
	static void stop() {
		node.close();
		allowed.stop(0);
		forbidden.stop(0);
	}

	private static AdminApi as(String user) {
		return node.as(user, user + "-secret");
	}

	@Test
	void fileOptionsNeverLeaveTheRootsWhateverTheSpelling() throws IOException {
		List<String> dirs = List.of(outside.toString(), outside + "/", root + "/../outside", "../outside",
				"..\\..\\outside", "%2e%2e/outside", "..%2Foutside", "link-out", "link-out/deeper",
				"a/../../outside", "sub\n/../../outside", "/PROC/self", "/proc/self/cwd", "/dev/shm", "/sys",
				node.dataDirectory().toString(), node.dataDirectory() + "/zookeeper", "\uFF0E\uFF0E/outside",
				"\u2024\u2024/outside", root.toString().toUpperCase());
		List<String> attempts = new ArrayList<>();
		for (String dir : dirs) {
			attempts.add("time --fixedDelay=50 --timeUnit=MILLISECONDS | file --dir='" + dir + "' --name=x");
			attempts.add("file --dir='" + dir + "' --pattern=* | log");
		}
		attackAsEveryRole(attempts, "f");

		try (Stream<Path> files = Files.walk(outside)) {
			assertThat(files.filter(Files::isRegularFile).map(Path::toString))
				.containsExactly(outside.resolve("secret.txt").toString());
		}
		assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("not for streams");
		try (Stream<Path> data = Files.list(node.dataDirectory())) {
			assertThat(data.map(path -> path.getFileName().toString()))
				.as("nothing written into the data directory by a stream").doesNotContain("x.out");
		}
	}

	@Test
	void networkOptionsReachOnlyDeclaredHostsWhateverTheSpelling() {
		int adminPort = URI.create(node.baseUri()).getPort();
		int forbiddenPort = forbidden.getAddress().getPort();
		int allowedPort = allowed.getAddress().getPort();
		List<String> urls = new ArrayList<>();
		for (String host : List.of("127.0.0.1", "127.1", "0177.0.0.1", "0x7f.0.0.1", "2130706433", "[::1]",
				"[::ffff:127.0.0.1]", "LOCALHOST.", "localhost.localdomain", "%6c%6fcalhost", "\uFF4Cocalhost",
				"xn--ocalhost-j4a", "localhost%00.evil", "evil@127.0.0.1", "169.254.169.254", "[fe80::1]")) {
			urls.add("http://" + host + ":" + forbiddenPort + "/");
		}
		urls.add("http://localhost:" + adminPort + "/streams/definitions");
		List<String> attempts = new ArrayList<>();
		for (String url : urls) {
			attempts.add("time --fixedDelay=50 --timeUnit=MILLISECONDS | http-client --url='" + url + "' | log");
		}
		attempts.add("http --address=0.0.0.0 --port=0 | log");
		attempts.add("tcp --address=:: --port=0 | log");
		attempts.add("syslog-udp --port=514 | log");
		attempts.add("http --port=" + adminPort + " | log");
		attackAsEveryRole(attempts, "n");

		// an allowed host that redirects: to a host not allowed, to the metadata address, to XD's own port
		for (String target : List.of("http://127.0.0.1:" + forbiddenPort + "/", "http://169.254.169.254/",
				"http://localhost:" + adminPort + "/streams/definitions", "file:///etc/passwd")) {
			String name = "redirect" + Math.abs(target.hashCode());
			Response created = as("admin").createStream(name, "time --fixedDelay=100 --timeUnit=MILLISECONDS | "
					+ "http-client --url='http://localhost:" + allowedPort + "/?to=" + target + "' | log", true);
			assertThat(created.status()).as(target).isEqualTo(201);
		}
		int before = ALLOWED_REQUESTS.get();
		await().atMost(Duration.ofSeconds(20)).until(() -> ALLOWED_REQUESTS.get() >= before + 8);
		assertThat(FORBIDDEN_REQUESTS.get()).as("requests that reached the service no one allowed").isZero();
		assertThat(as("admin").delete("/streams/definitions").status()).isEqualTo(200);
		assertThat(as("viewer").get("/streams/definitions").status()).as("the server still answers").isEqualTo(200);
	}

	/**
	 * Every definition as every role: refused (403 for roles that may not create, 400 otherwise), or, where the
	 * administrator's definition is accepted (a spelling that stays inside what is allowed), deployed to show what it
	 * does; the caller then checks the host.
	 */
	private static void attackAsEveryRole(List<String> definitions, String prefix) {
		int i = 0;
		List<String> accepted = new ArrayList<>();
		for (String definition : definitions) {
			for (String user : ROLES) {
				String name = prefix + i++;
				Response response = as(user).createStream(name, definition, false);
				if (user.equals("deployer") || user.equals("viewer")) {
					assertThat(response.status()).as(user + ": " + definition).isEqualTo(403);
					continue;
				}
				if (response.status() == 201) {
					accepted.add(name);
					continue;
				}
				assertThat(response.status()).as(user + ": " + definition).isEqualTo(400);
				assertThat(response.body()).as(definition).doesNotContain("Exception:", "\tat ");
			}
		}
		for (String name : accepted) {
			Response deployed = as("deployer").postForm("/streams/deployments/" + name, Map.of());
			assertThat(deployed.status()).isIn(200, 201);
		}
		await().pollDelay(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(30))
			.until(() -> accepted.stream().noneMatch(name -> as("viewer").status(name).equals("deploying")));
		assertThat(as("admin").delete("/streams/definitions").status()).isEqualTo(200);
	}
}
