package io.xd.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.sun.net.httpserver.HttpServer;
import io.xd.shell.FakeAdminServer.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http post} and {@code http get} against an endpoint on 127.0.0.1 (an http source stand-in) and an admin
 * server stand-in: what is sent, what is printed, when the command fails, and where the credentials go.
 */
class HttpCommandsTests {

	private static final Credentials ALICE = new Credentials("alice", "s3cret");

	private FakeAdminServer admin;

	private FakeAdminServer endpoint;

	private CommandRunner runner;

	private final StringWriter output = new StringWriter();

	@BeforeEach
	void startServers() throws IOException {
		this.admin = new FakeAdminServer();
		this.endpoint = new FakeAdminServer();
		this.runner = new CommandRunner(
				new ShellSession(this.admin.uri(), ALICE, false, AdminClient.newHttpClient()));
	}

	@AfterEach
	void stopServers() {
		this.admin.close();
		this.endpoint.close();
	}

	private boolean run(String line) {
		return this.runner.execute(line, new PrintWriter(this.output), null);
	}

	private String output() {
		return this.output.toString();
	}

	@Test
	void postsDataAsUtf8TextByDefault() {
		this.endpoint.answer("POST", "/", 202, "");
		assertThat(run("http post --target " + this.endpoint.uri() + " --data \"hello wörld\"")).isTrue();
		Request request = this.endpoint.onlyRequest();
		assertThat(request.method()).isEqualTo("POST");
		assertThat(request.path()).isEqualTo("/");
		assertThat(request.contentType()).isEqualTo("text/plain; charset=utf-8");
		assertThat(request.body()).isEqualTo("hello wörld");
		assertThat(output()).isEqualTo("> POST (text/plain; charset=utf-8) " + this.endpoint.uri()
				+ " hello wörld\n> 202 Accepted\n");
	}

	@Test
	void postsWithTheContentTypeGivenAndShowsAJsonAnswerIndented() {
		this.endpoint.answer("POST", "/orders", 200, "{\"id\":7,\"state\":\"new\"}");
		assertThat(run("http post --target " + this.endpoint.uri() + "/orders --contentType application/json "
				+ "--data '{\"item\":\"tea\"}'")).isTrue();
		assertThat(this.endpoint.onlyRequest().contentType()).isEqualTo("application/json");
		assertThat(this.endpoint.onlyRequest().body()).isEqualTo("{\"item\":\"tea\"}");
		assertThat(output()).isEqualTo("""
				> POST (application/json) %s/orders {"item":"tea"}
				> 200 OK
				{
				  "id" : 7,
				  "state" : "new"
				}
				""".formatted(this.endpoint.uri()));
	}

	@Test
	void postsTheBytesOfAFile(@TempDir Path dir) throws IOException {
		Path file = Files.writeString(dir.resolve("lines.txt"), "first\nsecond\n");
		this.endpoint.answer("POST", "/", 202, "");
		assertThat(run("http post --target " + this.endpoint.uri() + " --file " + file)).isTrue();
		assertThat(this.endpoint.onlyRequest().body()).isEqualTo("first\nsecond\n");
		assertThat(this.endpoint.onlyRequest().contentType()).isEqualTo("text/plain; charset=utf-8");
		assertThat(output()).isEqualTo("> POST (text/plain; charset=utf-8) " + this.endpoint.uri()
				+ " the contents of " + file + " (13 bytes)\n> 202 Accepted\n");
	}

	@Test
	void needsExactlyOneOfDataAndFile(@TempDir Path dir) throws IOException {
		Path file = Files.writeString(dir.resolve("x.txt"), "x");
		assertThat(run("http post --target " + this.endpoint.uri())).isFalse();
		assertThat(run("http post --target " + this.endpoint.uri() + " --data x --file " + file)).isFalse();
		assertThat(run("http post --target " + this.endpoint.uri() + " --file " + dir.resolve("missing.txt")))
			.isFalse();
		assertThat(output()).isEqualTo("""
				Command failed: Give either --data <text> or --file <path> to post
				Command failed: Give either --data <text> or --file <path> to post
				Command failed: Cannot read the file '%s'
				""".formatted(dir.resolve("missing.txt")));
		assertThat(this.endpoint.requests()).isEmpty();
	}

	@Test
	void refusesATargetThatIsNotAnHttpUri() {
		assertThat(run("http post --target localhost:9000 --data x")).isFalse();
		assertThat(output()).isEqualTo("Command failed: Not an http or https URI with a host: 'localhost:9000'\n");
	}

	@Test
	void failsOnAClientErrorShowingTheAnswer() {
		this.endpoint.answer("POST", "/", 415, "");
		assertThat(run("http post --target " + this.endpoint.uri() + " --data x --contentType image/png")).isFalse();
		assertThat(output()).isEqualTo("> POST (image/png) " + this.endpoint.uri() + " x\n"
				+ "> 415 Unsupported Media Type\n"
				+ "Command failed: POST " + this.endpoint.uri() + " answered 415 Unsupported Media Type\n");
	}

	@Test
	void failsOnAServerErrorShowingTheAnswer() {
		this.endpoint.answer("GET", "/health", 503, "{\"status\":\"DOWN\"}");
		assertThat(run("http get " + this.endpoint.uri() + "/health")).isFalse();
		assertThat(output()).isEqualTo("""
				> GET %1$s/health
				> 503 Service Unavailable
				{
				  "status" : "DOWN"
				}
				Command failed: GET %1$s/health answered 503 Service Unavailable
				""".formatted(this.endpoint.uri()));
	}

	@Test
	void failsOnARefusedConnectionInOneLine() throws IOException {
		URI closed = ShellCommandsTests.closedPort();
		assertThat(run("http post --target " + closed + " --data hello")).isFalse();
		assertThat(output()).isEqualTo("> POST (text/plain; charset=utf-8) " + closed + " hello\n"
				+ "Command failed: Unable to reach " + closed + ": connection refused\n");
	}

	@Test
	void getsAndShowsStatusAndBody() {
		this.endpoint.answer("GET", "/greeting?lang=en", 200, "\"hello\"");
		assertThat(run("http get --target " + this.endpoint.uri() + "/greeting?lang=en")).isTrue();
		assertThat(this.endpoint.onlyRequest().method()).isEqualTo("GET");
		assertThat(output()).isEqualTo("> GET " + this.endpoint.uri() + "/greeting?lang=en\n> 200 OK\n\"hello\"\n");
	}

	@Test
	void sendsTheShellsCredentialsToTheAdminServerOnly() {
		this.admin.answer("GET", "/streams/definitions", 200, "{}");
		this.endpoint.answer("POST", "/", 202, "");
		this.endpoint.answer("GET", "/", 200, "");
		assertThat(run("http get " + this.admin.uri() + "/streams/definitions")).isTrue();
		assertThat(run("http post --target " + this.endpoint.uri() + " --data hello")).isTrue();
		assertThat(run("http get " + this.endpoint.uri())).isTrue();
		assertThat(this.admin.onlyRequest().authorization()).isEqualTo(ALICE.authorization());
		assertThat(this.endpoint.requests()).hasSize(2).extracting(Request::authorization).containsOnlyNulls();
	}

	@Test
	void followsNoRedirectSoCredentialsStayWithTheAdminServer() throws IOException {
		HttpServer redirecting = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		redirecting.createContext("/", exchange -> {
			exchange.getResponseHeaders().set("Location", this.endpoint.uri() + "/elsewhere");
			exchange.sendResponseHeaders(302, -1);
			exchange.close();
		});
		redirecting.start();
		try {
			URI redirectingUri = URI.create("http://127.0.0.1:" + redirecting.getAddress().getPort());
			this.runner = new CommandRunner(new ShellSession(redirectingUri, ALICE, false, AdminClient.newHttpClient()));
			assertThat(run("http get " + redirectingUri + "/moved")).isFalse();
			assertThat(output()).isEqualTo("> GET " + redirectingUri + "/moved\n> 302 Found\nLocation: "
					+ this.endpoint.uri() + "/elsewhere\nCommand failed: GET " + redirectingUri
					+ "/moved answered 302 Found\n");
			assertThat(this.endpoint.requests()).isEmpty();
		}
		finally {
			redirecting.stop(0);
		}
	}

	@Test
	void sendsNoCredentialsWhenTheShellHasNone() {
		this.runner = new CommandRunner(new ShellSession(this.admin.uri(), false, AdminClient.newHttpClient()));
		this.admin.answer("GET", "/", 200, "");
		assertThat(run("http get " + this.admin.uri())).isTrue();
		assertThat(this.admin.onlyRequest().authorization()).isNull();
	}

	@Test
	void countsOnlyTheSameSchemeHostAndPortAsTheAdminServer() {
		AdminClient client = new AdminClient(AdminClient.newHttpClient(), URI.create("http://xd.example.com"), ALICE);
		assertThat(client.authorizationFor(URI.create("http://XD.example.com:80/streams"))).isNotNull();
		assertThat(client.authorizationFor(URI.create("https://xd.example.com/streams"))).isNull();
		assertThat(client.authorizationFor(URI.create("http://xd.example.com:9000/"))).isNull();
		assertThat(client.authorizationFor(URI.create("http://other.example.com/"))).isNull();
		assertThat(new AdminClient(AdminClient.newHttpClient(), URI.create("https://xd.example.com:443"), ALICE)
			.authorizationFor(URI.create("https://xd.example.com/"))).isNotNull();
	}

	@Test
	void encodesDataWithTheCharsetOfTheContentType() {
		assertThat(HttpCommands.charsetOf("text/plain; charset=ISO-8859-1")).isEqualTo(StandardCharsets.ISO_8859_1);
		assertThat(HttpCommands.charsetOf("text/plain;Charset=\"UTF-16\"")).isEqualTo(StandardCharsets.UTF_16);
		assertThat(HttpCommands.charsetOf("application/json")).isEqualTo(StandardCharsets.UTF_8);
		assertThatIllegalArgumentException().isThrownBy(() -> HttpCommands.charsetOf("text/plain; charset=klingon"))
			.withMessage("Unknown charset 'klingon' in --contentType");
	}

	@Test
	void showsTheDefaultsInTheUsage() {
		assertThat(run("help http post")).isTrue();
		assertThat(output()).isEqualTo("""
				http post - POST data to an http endpoint, such as an http source
				Usage: http post [--target <target>] [--data <data>] [--file <file>] [--contentType <contentType>]
				Options:
				  --target       the URL to post to (default: http://localhost:9000)
				  --data         the text to post; give --data or --file
				  --file         a file whose bytes to post; give --data or --file
				  --contentType  the content type of the request (default: text/plain; charset=utf-8)
				""");
	}

	@Test
	void stopsAScriptWithExitStatusOneWhenThePostFails() throws IOException {
		URI closed = ShellCommandsTests.closedPort();
		ByteArrayOutputStream stdout = new ByteArrayOutputStream();
		String commands = "http post --target " + closed + " --data hello\nhttp get " + this.endpoint.uri() + "\n";
		int status = XdShell.run(new String[] { "--uri", this.admin.uri().toString() },
				new ByteArrayInputStream(commands.getBytes(StandardCharsets.UTF_8)),
				new PrintStream(stdout, true, StandardCharsets.UTF_8), false);
		assertThat(status).isEqualTo(ScriptRunner.FAILURE);
		assertThat(stdout.toString(StandardCharsets.UTF_8)).endsWith("Command failed: Unable to reach " + closed
				+ ": connection refused\n");
		assertThat(this.endpoint.requests()).isEmpty();
	}

}
