package io.xd.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import io.xd.modules.internal.TestJars;
import io.xd.server.AdminApi.Response;
import io.xd.server.security.LocalAdministrator;
import io.xd.server.security.Role;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Authentication and roles on a real singlenode: users of {@code xd.security.users} over HTTP Basic and bearer JWTs
 * signed by a key the test creates; every endpoint against every role; cross-site requests; the local
 * administrator a server without users creates; the shell's messages.
 */
class SecurityIntegrationTests {

	@TempDir
	static Path data;

	private static SingleNode node;

	private static KeyPair signingKey;

	/** The password of the data source the operator declares; no answer may show it. */
	private static final String SALES_PASSWORD = "sales-s3cret-9f1";

	/** The audience the server is configured with, and its tokens carry. */
	private static final String AUDIENCE = "xd-test";

	/** The test's users, each named after what it holds (manager holds MANAGE only, admin every role). */
	private static final Map<String, Set<Role>> USERS = new LinkedHashMap<>();

	static {
		USERS.put("viewer", EnumSet.of(Role.VIEW));
		USERS.put("creator", EnumSet.of(Role.VIEW, Role.CREATE));
		USERS.put("deployer", EnumSet.of(Role.VIEW, Role.DEPLOY));
		USERS.put("destroyer", EnumSet.of(Role.VIEW, Role.DESTROY));
		USERS.put("manager", EnumSet.of(Role.MANAGE));
		USERS.put("admin", EnumSet.allOf(Role.class));
	}

	@BeforeAll
	static void start() throws Exception {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
		generator.initialize(2048);
		signingKey = generator.generateKeyPair();
		Path publicKey = Files.writeString(data.resolve("jwt.pub"), "-----BEGIN PUBLIC KEY-----\n"
				+ Base64.getMimeEncoder().encodeToString(signingKey.getPublic().getEncoded())
				+ "\n-----END PUBLIC KEY-----\n");
		List<String> args = new ArrayList<>();
		USERS.forEach((name, roles) -> {
			args.add("--xd.security.users." + name + ".password={noop}" + name + "-secret");
			args.add("--xd.security.users." + name + ".roles=" + String.join(",", roles.stream().map(Role::name)
				.toList()));
		});
		args.add("--spring.security.oauth2.resourceserver.jwt.public-key-location=file:" + publicKey);
		args.add("--xd.security.jwt.audience=" + AUDIENCE);
		args.add("--xd.datasources.sales.url=jdbc:h2:mem:sales;DB_CLOSE_DELAY=-1");
		args.add("--xd.datasources.sales.username=sa");
		args.add("--xd.datasources.sales.password=" + SALES_PASSWORD);
		node = new SingleNode(data.resolve("node"), args.toArray(String[]::new));
	}

	@AfterAll
	static void stop() {
		node.close();
	}

	private static AdminApi as(String user) {
		return node.as(user, user + "-secret");
	}

	@Test
	void theIssuesScenario() {
		assertThat(node.as(null, null).get("/streams/definitions").status()).isEqualTo(401);
		assertThat(as("viewer").get("/streams/definitions").status()).isEqualTo(200);
		assertThat(as("viewer").createStream("s1", "time | log", false).status()).isEqualTo(403);
		assertThat(as("creator").createStream("s1", "time | log", false).status()).isEqualTo(201);
		assertThat(as("creator").postForm("/streams/deployments/s1", Map.of()).status()).isEqualTo(403);
		assertThat(as("creator").createStream("s2", "time | log", true).status()).as("create and deploy")
			.isEqualTo(403);
		assertThat(as("deployer").postForm("/streams/deployments/s1", Map.of()).status()).isIn(200, 201);
		await().atMost(Duration.ofSeconds(20)).until(() -> as("viewer").status("s1").equals("deployed"));
		assertThat(as("deployer").delete("/streams/deployments/s1").status()).isEqualTo(200);
		assertThat(as("deployer").delete("/streams/definitions/s1").status()).isEqualTo(403);
		assertThat(as("destroyer").delete("/streams/definitions/s1").status()).isEqualTo(200);
		assertThat(as("viewer").get("/streams/definitions/s1").status()).isEqualTo(404);

		Response evil = as("creator").send(formPost("/streams/definitions", "name=s3&definition=time%20%7C%20log")
			.header("Origin", "http://evil.example"));
		assertThat(evil.status()).isEqualTo(403);
		assertThat(evil.body()).contains("CrossSiteRequest", "http://evil.example");
		assertThat(as("viewer").get("/streams/definitions/s3").status()).isEqualTo(404);
	}

	@Test
	void creatingNeverDeploysWithoutTheDeployRoleWhicheverWayTheRequestAsks() {
		String form = "application/x-www-form-urlencoded";
		String json = "application/json";
		record Attempt(String query, String contentType, String body) {
		}
		List<Attempt> attempts = List.of(new Attempt("", form, "name=c1&definition=time%20%7C%20log"),
				new Attempt("", json, "{\"name\":\"c2\",\"definition\":\"time | log\"}"),
				new Attempt("", json, "{\"name\":\"c3\",\"definition\":\"time | log\",\"deploy\":true}"),
				new Attempt("", json, "{\"name\":\"c4\",\"definition\":\"time | log\",\"deploy\":\"TRUE\"}"),
				new Attempt("?deploy=false", json,
						"{\"name\":\"c5\",\"definition\":\"time | log\",\"deploy\":\"True\"}"),
				new Attempt("?deploy=true", form, "name=c6&definition=time%20%7C%20log"),
				new Attempt("", form, "name=c7&definition=time%20%7C%20log&deploy=tRuE"),
				new Attempt("?deploy=false", form, "name=c8&definition=time%20%7C%20log&deploy=true"),
				new Attempt("", json, "{\"name\":\"c9\",\"definition\":\"time | log\",\"deploy\":false,"
						+ "\"deploy\":true}"));
		for (Attempt attempt : attempts) {
			Response response = as("creator").post("/streams/definitions" + attempt.query(), attempt.contentType(),
					attempt.body());
			assertThat(response.status()).as(attempt.toString()).isIn(201, 403);
		}
		for (int i = 1; i <= attempts.size(); i++) {
			Response stream = as("viewer").get("/streams/definitions/c" + i);
			if (stream.status() == 200) {
				assertThat(stream.json().get("status").asString()).as("c" + i).isEqualTo("undeployed");
			}
		}
		assertThat(as("viewer").get("/runtime/modules").body()).doesNotContain("\"c1", "\"c2", "\"c9");
		assertThat(as("viewer").get("/streams/definitions/c1").status()).as("a plain create still creates")
			.isEqualTo(200);
		assertThat(as("admin").createStream("c10", "time | log", false).status()).isEqualTo(201);
		assertThat(as("admin").post("/streams/definitions", json,
				"{\"name\":\"c11\",\"definition\":\"time | log\",\"deploy\":true}").status()).isEqualTo(201);
		await().atMost(Duration.ofSeconds(20)).until(() -> as("viewer").status("c11").equals("deployed"));
		assertThat(as("viewer").status("c10")).isEqualTo("undeployed");
		assertThat(as("admin").delete("/streams/definitions").status()).isEqualTo(200);
	}

	@Test
	void changingModuleOptionsThroughDeploymentsNeedsCreateAsWellAsDeploy() {
		assertThat(as("admin").createStream("o1", "time | transform --expression=payload | log", false).status())
			.isEqualTo(201);
		String overriding = "module.log.count=1,app.transform.expression=payload.toUpperCase()";
		assertThat(as("deployer").postForm("/streams/deployments/o1", Map.of("properties", overriding)).status())
			.as("deploy with an option override").isEqualTo(403);
		assertThat(as("deployer").post("/streams/deployments/o1", "application/json",
				"{\"properties\":\"app.transform.expression=payload.toUpperCase()\"}").status())
			.as("the same in JSON").isEqualTo(403);
		assertThat(as("deployer").postForm("/streams/deployments/o1", Map.of("properties", "module.log.count=1"))
			.status()).isIn(200, 201);
		await().atMost(Duration.ofSeconds(20)).until(() -> as("viewer").status("o1").equals("deployed"));
		assertThat(as("deployer").postForm("/streams/deployments/update/o1",
				Map.of("properties", "app.transform.expression='x'")).status()).as("update with an option override")
			.isEqualTo(403);
		assertThat(as("deployer").postForm("/streams/deployments/update/o1",
				Map.of("properties", "module.log.count=0")).status()).isEqualTo(200);
		assertThat(as("deployer").post("/streams/deployments/rollback/o1/1", null, "").status()).as("rollback")
			.isEqualTo(403);
		assertThat(as("admin").postForm("/streams/deployments/update/o1",
				Map.of("properties", "app.transform.expression='x'")).status()).isEqualTo(200);
		assertThat(as("admin").get("/streams/deployments/history/o1").body()).contains("app.transform.expression");
		assertThat(as("admin").delete("/streams/definitions/o1").status()).isEqualTo(200);
	}

	@Test
	void everyEndpointAnswersEachRoleAsTheTableSays() {
		record Endpoint(String method, String path, String body, Set<Role> needs) {
		}
		List<Endpoint> endpoints = List.of(new Endpoint("GET", "/streams/definitions", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/streams/definitions/none", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/streams/deployments/none", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/modules", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/modules/source/time", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/runtime/containers", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/runtime/modules", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/actuator/prometheus", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/actuator/metrics", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/actuator/health", null, Set.of()),
				new Endpoint("POST", "/streams/definitions", "name=t1&definition=time%20%7C%20log",
						Set.of(Role.CREATE)),
				new Endpoint("POST", "/streams/definitions", "name=t2&definition=time%20%7C%20log&deploy=true",
						Set.of(Role.CREATE, Role.DEPLOY)),
				new Endpoint("POST", "/streams/deployments/none", "", Set.of(Role.DEPLOY)),
				new Endpoint("POST", "/streams/deployments/none", "properties=app.log.level%3DWARN",
						Set.of(Role.CREATE, Role.DEPLOY)),
				new Endpoint("POST", "/streams/deployments/update/none", "properties=module.log.count%3D1",
						Set.of(Role.DEPLOY)),
				new Endpoint("POST", "/streams/deployments/update/none", "properties=app.log.level%3DWARN",
						Set.of(Role.CREATE, Role.DEPLOY)),
				new Endpoint("POST", "/streams/deployments/scale/none/log/instances/2", "", Set.of(Role.DEPLOY)),
				new Endpoint("POST", "/streams/deployments/rollback/none/1", "", Set.of(Role.CREATE, Role.DEPLOY)),
				new Endpoint("DELETE", "/streams/deployments/none", null, Set.of(Role.DEPLOY)),
				new Endpoint("DELETE", "/streams/definitions/none", null, Set.of(Role.DESTROY)),
				new Endpoint("GET", "/metrics/counters", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/metrics/field-value-counters/none", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/metrics/aggregate-counters/none?resolution=minute", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/metrics/gauges", null, Set.of(Role.VIEW)),
				new Endpoint("GET", "/metrics/rich-gauges/none", null, Set.of(Role.VIEW)),
				new Endpoint("DELETE", "/metrics/counters/none", null, Set.of(Role.DESTROY)),
				new Endpoint("DELETE", "/metrics/aggregate-counters/none", null, Set.of(Role.DESTROY)),
				new Endpoint("DELETE", "/metrics/rich-gauges/none", null, Set.of(Role.DESTROY)),
				new Endpoint("POST", "/modules/processor/custom", "", Set.of(Role.MANAGE)),
				new Endpoint("DELETE", "/modules/processor/custom", null, Set.of(Role.MANAGE)),
				new Endpoint("GET", "/audit-records", null, Set.of(Role.MANAGE)),
				new Endpoint("GET", "/audit-records?user=viewer", null, Set.of(Role.MANAGE)),
				new Endpoint("DELETE", "/audit-records", null, Set.of(Role.MANAGE)),
				new Endpoint("POST", "/actuator/health", "", Set.of()));
		List<String> wrong = new ArrayList<>();
		for (Endpoint endpoint : endpoints) {
			for (String user : USERS.keySet()) {
				int status = call(as(user), endpoint.method(), endpoint.path(), endpoint.body()).status();
				boolean allowed = USERS.get(user).containsAll(endpoint.needs());
				if (allowed ? (status == 401 || status == 403) : status != 403) {
					wrong.add(endpoint.method() + " " + endpoint.path() + " as " + user + ": " + status);
				}
			}
			int anonymous = call(node.as(null, null), endpoint.method(), endpoint.path(), endpoint.body()).status();
			if (endpoint.needs().isEmpty() ? (anonymous == 401 || anonymous == 403) : anonymous != 401) {
				wrong.add(endpoint.method() + " " + endpoint.path() + " without credentials: " + anonymous);
			}
		}
		assertThat(wrong).isEmpty();
		assertThat(as("admin").delete("/streams/definitions").status()).isEqualTo(200);
	}

	@Test
	void securityInfoTellsWhoTheCallerIsAndItsRoles() {
		JsonNode creator = as("creator").get("/security/info").json();
		assertThat(creator.get("authenticated").asBoolean()).isTrue();
		assertThat(creator.get("username").asString()).isEqualTo("creator");
		assertThat(creator.get("roles").valueStream().map(JsonNode::asString).toList())
			.containsExactlyInAnyOrder("VIEW", "CREATE");
		Response anonymous = node.as(null, null).get("/security/info");
		assertThat(anonymous.status()).isEqualTo(200);
		assertThat(anonymous.json().get("authenticated").asBoolean()).isFalse();
		assertThat(node.as(null, null).get("/dashboard/missing.js").status()).as("static files need no login")
			.isEqualTo(404);
	}

	@Test
	void refusalsSayWhatIsMissingInTheApisErrorFormat() {
		Response anonymous = node.as(null, null).get("/streams/definitions");
		assertThat(anonymous.json().get(0).get("logref").asString()).isEqualTo("Unauthorized");
		Response wrongPassword = node.as("viewer", "nope").get("/streams/definitions");
		assertThat(wrongPassword.status()).isEqualTo(401);
		Response forbidden = as("viewer").createStream("nope", "time | log", false);
		assertThat(forbidden.json().get(0).get("message").asString()).contains("viewer", "CREATE");
	}

	@Test
	void bearerTokensCarryTheirRolesInTheRolesClaim() throws Exception {
		AdminApi bearer = node.as(null, null);
		String token = token(signingKey, List.of("VIEW", "CREATE"), Instant.now().plusSeconds(300));
		Response listed = bearer.send(HttpRequest.newBuilder(URI.create(node.baseUri() + "/streams/definitions"))
			.header("Authorization", "Bearer " + token)
			.GET());
		assertThat(listed.status()).isEqualTo(200);
		Response created = bearer.send(formPost("/streams/definitions", "name=jwt1&definition=time%20%7C%20log")
			.header("Authorization", "Bearer " + token));
		assertThat(created.status()).isEqualTo(201);
		Response deployed = bearer.send(formPost("/streams/deployments/jwt1", "")
			.header("Authorization", "Bearer " + token));
		assertThat(deployed.status()).isEqualTo(403);

		KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
		generator.initialize(2048);
		String forged = token(generator.generateKeyPair(), List.of("VIEW"), Instant.now().plusSeconds(300));
		String expired = token(signingKey, List.of("VIEW"), Instant.now().minusSeconds(600));
		String otherAudience = token(signingKey, List.of("VIEW"), Instant.now().plusSeconds(300), "other-app");
		String noAudience = token(signingKey, List.of("VIEW"), Instant.now().plusSeconds(300), null);
		for (String refused : List.of(forged, expired, otherAudience, noAudience)) {
			assertThat(bearer.send(HttpRequest.newBuilder(URI.create(node.baseUri() + "/streams/definitions"))
				.header("Authorization", "Bearer " + refused)
				.GET()).status()).isEqualTo(401);
		}
		assertThat(as("admin").delete("/streams/definitions/jwt1").status()).isEqualTo(200);
	}

	@Test
	void pagesOfOtherOriginsAndOtherHostNamesAreRefused() throws IOException {
		Response crossSite = as("creator").send(formPost("/streams/definitions", "name=x1&definition=time%20%7C%20log")
			.header("Sec-Fetch-Site", "same-site"));
		assertThat(crossSite.status()).isEqualTo(403);
		Response sameOrigin = as("creator").send(formPost("/streams/definitions", "name=x2&definition=time%20%7C%20log")
			.header("Origin", node.baseUri())
			.header("Sec-Fetch-Site", "same-origin"));
		assertThat(sameOrigin.status()).isEqualTo(201);

		// DNS rebinding: a page of rebind.example resolved to 127.0.0.1 reaches the server under its own host name
		String port = URI.create(node.baseUri()).getPort() + "";
		assertThat(rawGet("rebind.example:" + port)).startsWith("HTTP/1.1 403");
		assertThat(rawGet("localhost:" + port)).startsWith("HTTP/1.1 200");
		assertThat(as("admin").delete("/streams/definitions/x2").status()).isEqualTo(200);
	}

	@Test
	void theShellAuthenticatesAndExplainsRefusals() {
		ShellRun anonymous = ShellRun.withInput(node.as(null, null), "stream list\n");
		assertThat(anonymous.exitStatus()).isEqualTo(1);
		assertThat(anonymous.output()).contains("asks for credentials", "--username");

		ShellRun viewer = ShellRun.withInput(as("viewer"), """
				stream list
				stream create sh1 --definition "time | log"
				""");
		assertThat(viewer.exitStatus()).isEqualTo(1);
		assertThat(viewer.output()).contains("Stream Name", "Access denied", "CREATE");

		ShellRun retargeted = ShellRun.withInput(node.as(null, null), "admin config server --uri " + node.baseUri()
				+ " --username creator --password creator-secret\nstream create sh2 --definition \"time | log\"\n");
		assertThat(retargeted.exitStatus()).as(retargeted.output()).isZero();
		assertThat(retargeted.output()).contains("as user 'creator'", "Created new stream 'sh2'");
		assertThat(as("admin").delete("/streams/definitions/sh2").status()).isEqualTo(200);
	}

	@Test
	void aServerWithoutUsersCreatesAnAdministratorOnlyItsOwnerCanRead(@TempDir Path other) throws IOException {
		try (SingleNode plain = new SingleNode(other)) {
			Path file = other.resolve(LocalAdministrator.FILE_NAME);
			assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
			assertThat(plain.get("/streams/definitions").status()).as("as the administrator of the file")
				.isEqualTo(200);
			assertThat(plain.as(null, null).get("/streams/definitions").status()).isEqualTo(401);
			assertThat(plain.as(LocalAdministrator.USERNAME, "guess").get("/streams/definitions").status())
				.isEqualTo(401);
			assertThat(plain.createStream("mine", "time | log", true).status()).isEqualTo(201);
			ShellRun shell = ShellRun.withInput(plain.as(null, null), "admin config server --uri " + plain.baseUri()
					+ "\nstream list\n");
			assertThat(shell.output()).as("without XD_DATA_DIR, the shell looks in ~/.xd/data, not here")
				.contains("credentials");
		}
		try (SingleNode open = new SingleNode(other.resolve("open"), "--xd.security.enabled=false")) {
			assertThat(open.as(null, null).createStream("free", "time | log", false).status()).isEqualTo(201);
			assertThat(other.resolve("open").resolve(LocalAdministrator.FILE_NAME)).doesNotExist();
		}
	}

	@Test
	void definitionsCannotReachWhatTheyMustNot() {
		AdminApi admin = as("admin");
		assertThat(admin.createStream("reach", "time | log", false).status()).isEqualTo(201);
		Map<String, String> refused = new LinkedHashMap<>();
		refused.put("module.log.producer.bootstrap.servers=evil:9092", "bootstrap.servers");
		refused.put("module.log.consumer.sasl.jaas.config=x", "sasl.jaas.config");
		refused.put("module.log.criteria='a'.repeat(100000000)", "criteria");
		refused.put("module.*.count=100000", "xd.admin.limits.maxInstances");
		refused.forEach((properties, named) -> {
			Response response = admin.postForm("/streams/deployments/reach", Map.of("properties", properties));
			assertThat(response.status()).as(properties).isEqualTo(400);
			assertThat(response.body()).as(properties).contains(named);
		});
		Response producers = admin.createStream("many", "load-generator --producers=100000 | throughput", false);
		assertThat(producers.status()).isEqualTo(400);
		assertThat(producers.body()).contains("producers");
		Response tooLong = admin.createStream("x".repeat(101), "time | log", false);
		assertThat(tooLong.status()).isEqualTo(400);
		assertThat(tooLong.body()).contains("xd.admin.limits.maxNameLength");
		assertThat(admin.delete("/streams/definitions/reach").status()).isEqualTo(200);
	}

	@Test
	void fileOptionsReachOnlyTheFileRootsWhoeverAsks() throws IOException {
		Path root = node.dataDirectory().resolve("files");
		Path outside = Files.createDirectories(data.resolve("outside"));
		Files.createDirectories(root);
		Files.createSymbolicLink(root.resolve("escape"), outside);
		Files.createSymbolicLink(root.resolve("data"), node.dataDirectory());
		List<String> refusedDirs = List.of(outside.toString(), "../../outside", "/etc", "/proc/self",
				"/dev/shm", node.dataDirectory().toString(), "escape", "escape/deeper", "data",
				root + "/../credentials-folder", "reports/../../outside");
		int i = 0;
		for (String user : List.of("creator", "admin")) {
			for (String dir : refusedDirs) {
				String quoted = "'" + dir + "'";
				for (String definition : List.of("time | file --dir=" + quoted + " --name=x" + i,
						"file --dir=" + quoted + " | log")) {
					Response response = as(user).createStream("f" + i++, definition, false);
					assertThat(response.status()).as(user + ": " + definition).isEqualTo(400);
					assertThat(response.body()).as(definition).contains("option 'dir'", root.toString());
				}
			}
		}
		assertThat(as("admin").createStream("inside", "time | file --dir=reports --name=r", false).status())
			.isEqualTo(201);
		Response override = as("admin").postForm("/streams/deployments/inside",
				Map.of("properties", "app.file.dir=" + outside));
		assertThat(override.status()).as("an option override through deploy").isEqualTo(400);
		assertThat(override.body()).contains("option 'dir'");
		try (Stream<Path> files = Files.list(outside)) {
			assertThat(files).as("nothing written outside the roots").isEmpty();
		}
		assertThat(as("admin").delete("/streams/definitions").status()).isEqualTo(200);
	}

	@Test
	void databaseOptionsNameDeclaredDataSourcesAndNeverShowTheirPasswords() {
		Map<String, String> refused = new LinkedHashMap<>();
		refused.put("time | jdbc --url='jdbc:h2:mem:x;INIT=RUNSCRIPT FROM \"/etc/passwd\"' --tableName=t",
				"option 'url'");
		refused.put("time | jdbc --url='jdbc:h2:file:" + node.dataDirectory() + "/zookeeper/db' --tableName=t",
				"option 'url'");
		refused.put("time | jdbc --url='jdbc:postgresql://127.0.0.1:" + URI.create(node.baseUri()).getPort()
				+ "/x?%73ocketFactory=a.B' --tableName=t", "option 'url'");
		refused.put("time | jdbc --dataSource=sales --password=guess --tableName=t", "option 'password'");
		refused.put("time | jdbc --dataSource=sales --url='jdbc:h2:mem:other' --tableName=t", "dataSource");
		refused.put("time | jdbc --dataSource=payroll --tableName=t", "declared: sales");
		assertRefusedToCreatorAndAdmin(refused, "d");
		assertThat(as("admin").createStream("sales", "time --fixedDelay=100 --timeUnit=MILLISECONDS | jdbc "
				+ "--dataSource=sales --tableName=ticks --initialize=true", true).status()).isEqualTo(201);
		await().atMost(Duration.ofSeconds(20)).until(() -> as("viewer").status("sales").equals("deployed"));
		for (String path : List.of("/streams/definitions", "/streams/definitions/sales", "/runtime/modules",
				"/streams/deployments/history/sales", "/streams/deployments/manifest/sales/1", "/actuator/prometheus")) {
			assertThat(as("viewer").get(path).body()).as(path).doesNotContain(SALES_PASSWORD);
		}
		assertThat(as("admin").delete("/streams/definitions").status()).isEqualTo(200);
	}

	@Test
	void secretOptionsAreShownMaskedToEveryoneAndTheModuleGetsTheRealValue() throws IOException {
		Path jar = TestJars.secretKeeper().writeTo(data.resolve("keeper.jar"));
		assertThat(as("manager").send(HttpRequest.newBuilder(URI.create(node.baseUri() + "/modules/processor/keeper"))
			.header("Content-Type", "application/octet-stream")
			.POST(HttpRequest.BodyPublishers.ofFile(jar))).status()).isEqualTo(201);
		String key = "k3y-s3cret-" + System.nanoTime();
		assertThat(as("creator").createStream("keeping", "time --fixedDelay=100 --timeUnit=MILLISECONDS | keeper "
				+ "--apiKey='" + key + "' --region=us | log", false).status()).isEqualTo(201);
		assertThat(as("deployer").postForm("/streams/deployments/keeping", Map.of()).status()).isEqualTo(201);
		await().atMost(Duration.ofSeconds(20)).until(() -> as("viewer").status("keeping").equals("deployed"));

		for (String user : List.of("viewer", "admin")) {
			for (String path : List.of("/streams/definitions", "/streams/definitions/keeping", "/runtime/modules",
					"/streams/deployments/history/keeping", "/streams/deployments/manifest/keeping/1")) {
				String body = as(user).get(path).body();
				assertThat(body).as(user + " " + path).doesNotContain(key).contains("******");
			}
		}
		assertThat(as("viewer").get("/streams/definitions/keeping").json().get("definition").asString())
			.contains("--apiKey=****** --region=us");
		assertThat(as("admin").delete("/streams/definitions/keeping").status()).isEqualTo(200);
		assertThat(as("admin").delete("/modules/processor/keeper").status()).isEqualTo(200);
	}

	@Test
	void networkOptionsReachOnlyWhatTheOperatorDeclared() {
		int adminPort = URI.create(node.baseUri()).getPort();
		Map<String, String> refused = new LinkedHashMap<>();
		refused.put("http --port=" + adminPort + " | log", "option 'port'");
		refused.put("tcp --port=80 | log", "option 'port'");
		refused.put("syslog-udp --address=0.0.0.0 --port=5514 | log", "xd.modules.network.bind-addresses");
		refused.put("http --address=:: --port=0 | log", "xd.modules.network.bind-addresses");
		refused.put("time | http-client --url=http://127.0.0.1:" + adminPort + "/streams/definitions | log",
				"xd.modules.http-client.allowed-hosts");
		refused.put("time | http-client --url=http://169.254.169.254/latest/meta-data/ | log", "option 'url'");
		refused.put("time | http-client --url=http://localhost:" + adminPort + "/ | log", "option 'url'");
		assertRefusedToCreatorAndAdmin(refused, "n");
		assertThat(as("viewer").get("/streams/definitions").json().get("content")).isEmpty();
	}

	/** Each definition, created by a CREATE user and by the administrator, is a 400 whose body holds its value. */
	private static void assertRefusedToCreatorAndAdmin(Map<String, String> refused, String namePrefix) {
		int i = 0;
		for (String user : List.of("creator", "admin")) {
			for (Map.Entry<String, String> definition : refused.entrySet()) {
				Response response = as(user).createStream(namePrefix + i++, definition.getKey(), false);
				assertThat(response.status()).as(user + ": " + definition.getKey()).isEqualTo(400);
				assertThat(response.body()).as(definition.getKey()).contains(definition.getValue());
			}
		}
	}

	private static Response call(AdminApi api, String method, String path, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.baseUri() + path));
		if (body == null) {
			request.method(method, HttpRequest.BodyPublishers.noBody());
		}
		else {
			request.header("Content-Type", "application/x-www-form-urlencoded")
				.method(method, HttpRequest.BodyPublishers.ofString(body));
		}
		return api.send(request);
	}

	private static HttpRequest.Builder formPost(String path, String body) {
		return HttpRequest.newBuilder(URI.create(node.baseUri() + path))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(body));
	}

	private static String token(KeyPair key, List<String> roles, Instant expiry) throws Exception {
		return token(key, roles, expiry, AUDIENCE);
	}

	private static String token(KeyPair key, List<String> roles, Instant expiry, String audience) throws Exception {
		SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), new JWTClaimsSet.Builder().subject("jwt-user")
			.audience(audience)
			.claim("roles", roles)
			.issueTime(Date.from(expiry.minusSeconds(900)))
			.expirationTime(Date.from(expiry))
			.build());
		jwt.sign(new RSASSASigner((RSAPrivateKey) key.getPrivate()));
		return jwt.serialize();
	}

	/** A GET of the health endpoint with this Host header, over a raw socket (HttpClient sets Host itself). */
	private static String rawGet(String host) throws IOException {
		URI base = URI.create(node.baseUri());
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), base.getPort())) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(("GET /actuator/health HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
		}
	}
}
