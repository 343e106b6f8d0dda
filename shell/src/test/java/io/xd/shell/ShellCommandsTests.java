package io.xd.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import io.xd.shell.FakeAdminServer.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.shell.core.InputReader;

/**
 * Each command against a fake admin server: the exact request sent and the exact text printed.
 */
class ShellCommandsTests {

	private static final String FORM = "application/x-www-form-urlencoded";

	private static final String EMPTY_PAGE = """
			{"content":[],"page":{"size":1000,"totalElements":0,"totalPages":0,"number":0},"links":[]}""";

	private FakeAdminServer admin;

	private CommandRunner runner;

	private final StringWriter output = new StringWriter();

	private final Deque<String> answers = new ArrayDeque<>();

	private final List<String> prompts = new ArrayList<>();

	private final InputReader userInput = new InputReader() {
		@Override
		public String readInput(String prompt) {
			ShellCommandsTests.this.prompts.add(prompt);
			return ShellCommandsTests.this.answers.poll();
		}
	};

	@BeforeEach
	void startAdmin() throws IOException {
		this.admin = new FakeAdminServer();
		this.runner = runner(this.admin.uri(), false);
	}

	@AfterEach
	void stopAdmin() {
		this.admin.close();
	}

	private static CommandRunner runner(URI uri, boolean interactive) {
		return new CommandRunner(new ShellSession(uri, interactive, AdminClient.newHttpClient()));
	}

	private boolean run(String line) {
		return this.runner.execute(line, new PrintWriter(this.output), this.userInput);
	}

	private String output() {
		return this.output.toString();
	}

	private static String page(String... items) {
		return "{\"content\":[" + String.join(",", items) + "],\"page\":{\"size\":1000,\"totalElements\":"
				+ items.length + ",\"totalPages\":1,\"number\":0},\"links\":[]}";
	}

	private void assertFormPost(Request request, String path, Map<String, String> form) {
		assertThat(request.method()).isEqualTo("POST");
		assertThat(request.path()).isEqualTo(path);
		assertThat(request.contentType()).isEqualTo(FORM);
		assertThat(request.accept()).isEqualTo("application/json");
		assertThat(request.form()).containsExactlyInAnyOrderEntriesOf(form);
	}

	@Test
	void createsStreamWithoutDeployingIt() {
		this.admin.answer("POST", "/streams/definitions", 201,
				"{\"name\":\"ticktock\",\"definition\":\"time | log\",\"status\":\"undeployed\"}");
		assertThat(run("stream create ticktock --definition \"time | log\"")).isTrue();
		assertFormPost(this.admin.onlyRequest(), "/streams/definitions",
				Map.of("name", "ticktock", "definition", "time | log", "deploy", "false"));
		assertThat(this.admin.onlyRequest().body()).isEqualTo("name=ticktock&definition=time+%7C+log&deploy=false");
		assertThat(output()).isEqualTo("Created new stream 'ticktock'\n");
	}

	@Test
	void createsAndDeploysStream() {
		this.admin.answer("POST", "/streams/definitions", 201, "{}");
		assertThat(run("stream create --name ticktock --definition \"time --fixedDelay=2 | log\" --deploy")).isTrue();
		assertFormPost(this.admin.onlyRequest(), "/streams/definitions",
				Map.of("name", "ticktock", "definition", "time --fixedDelay=2 | log", "deploy", "true"));
		assertThat(output()).isEqualTo("Created and deployed new stream 'ticktock'\n");
	}

	@Test
	void deploysStreamWithProperties() {
		this.admin.answer("POST", "/streams/deployments/ticktock", 201, "");
		assertThat(run("stream deploy ticktock --properties \"module.log.count=2,module.time.trigger=x\"")).isTrue();
		assertFormPost(this.admin.onlyRequest(), "/streams/deployments/ticktock",
				Map.of("properties", "module.log.count=2,module.time.trigger=x"));
		assertThat(output()).isEqualTo("Deployed stream 'ticktock'\n");
	}

	@Test
	void deploysStreamWithoutProperties() {
		this.admin.answer("POST", "/streams/deployments/ticktock", 201, "");
		assertThat(run("stream deploy --name ticktock")).isTrue();
		assertThat(this.admin.onlyRequest().body()).isEmpty();
		assertThat(output()).isEqualTo("Deployed stream 'ticktock'\n");
	}

	@Test
	void deploysStreamWithPropertiesFile(@TempDir Path dir) throws IOException {
		Path file = Files.writeString(dir.resolve("deploy.properties"), """
				# deployment of ticktock
				module.time.trigger = x
				module.log.count=2
				""");
		this.admin.answer("POST", "/streams/deployments/ticktock", 201, "");
		assertThat(run("stream deploy ticktock --propertiesFile \"" + file + "\"")).isTrue();
		assertFormPost(this.admin.onlyRequest(), "/streams/deployments/ticktock",
				Map.of("properties", "module.log.count=2,module.time.trigger=x"));
		assertThat(output()).isEqualTo("Deployed stream 'ticktock'\n");
	}

	@Test
	void refusesPropertiesAndPropertiesFileTogether() {
		assertThat(run("stream deploy ticktock --properties a=b --propertiesFile f.properties")).isFalse();
		assertThat(this.admin.requests()).isEmpty();
		assertThat(output())
			.isEqualTo("Command failed: You cannot specify both --properties and --propertiesFile\n");
	}

	@Test
	void reportsMissingPropertiesFile(@TempDir Path dir) {
		Path missing = dir.resolve("missing.properties");
		assertThat(run("stream deploy ticktock --propertiesFile " + missing)).isFalse();
		assertThat(this.admin.requests()).isEmpty();
		assertThat(output()).isEqualTo("Command failed: Cannot read the properties file '" + missing + "'\n");
	}

	@Test
	void undeploysStream() {
		this.admin.answer("DELETE", "/streams/deployments/ticktock", 200, "");
		assertThat(run("stream undeploy ticktock")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("DELETE /streams/deployments/ticktock");
		assertThat(output()).isEqualTo("Un-deployed stream 'ticktock'\n");
	}

	@Test
	void destroysStream() {
		this.admin.answer("DELETE", "/streams/definitions/ticktock", 200, "");
		assertThat(run("stream destroy --name ticktock")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("DELETE /streams/definitions/ticktock");
		assertThat(output()).isEqualTo("Destroyed stream 'ticktock'\n");
	}

	@Test
	void encodesStreamNameInPath() {
		this.admin.answer("DELETE", "/streams/definitions/my%20stream", 200, "");
		assertThat(run("stream destroy \"my stream\"")).isTrue();
		assertThat(this.admin.onlyRequest().path()).isEqualTo("/streams/definitions/my%20stream");
		assertThat(output()).isEqualTo("Destroyed stream 'my stream'\n");
	}

	@Test
	void listsStreams() {
		this.admin.answer("GET", "/streams/definitions?size=1000", 200,
				page("{\"name\":\"ticktock\",\"definition\":\"time | log\",\"status\":\"deployed\"}",
						"{\"name\":\"in\",\"definition\":\"http --port=9000 | file\",\"status\":\"undeployed\"}"));
		assertThat(run("stream list")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("GET /streams/definitions?size=1000");
		assertThat(output()).isEqualTo("""
				Stream Name  Stream Definition        Status
				-----------  -----------------------  ----------
				ticktock     time | log               deployed
				in           http --port=9000 | file  undeployed
				""");
	}

	@Test
	void listsNoStreams() {
		this.admin.answer("GET", "/streams/definitions?size=1000", 200, EMPTY_PAGE);
		assertThat(run("stream list")).isTrue();
		assertThat(output()).isEqualTo("""
				Stream Name  Stream Definition  Status
				-----------  -----------------  ------
				""");
	}

	@Test
	void undeploysAllStreamsWithoutAskingInScripts() {
		this.admin.answer("DELETE", "/streams/deployments", 200, "");
		assertThat(run("stream all undeploy")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("DELETE /streams/deployments");
		assertThat(this.prompts).isEmpty();
		assertThat(output()).isEqualTo("Un-deployed all the streams\n");
	}

	@Test
	void destroysAllStreamsWithForce() {
		this.admin.answer("DELETE", "/streams/definitions", 200, "");
		assertThat(run("stream all destroy --force")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("DELETE /streams/definitions");
		assertThat(output()).isEqualTo("Destroyed all the streams\n");
	}

	@Test
	void asksBeforeUndeployingAllStreamsInteractively() {
		this.runner = runner(this.admin.uri(), true);
		this.admin.answer("DELETE", "/streams/deployments", 200, "");
		this.answers.addAll(List.of("maybe", "n"));
		assertThat(run("stream all undeploy")).isTrue();
		assertThat(this.prompts).containsExactly("Really undeploy all streams? [y, n]: ",
				"Really undeploy all streams? [y, n]: ");
		assertThat(this.admin.requests()).isEmpty();
		assertThat(output()).isEmpty();

		this.answers.add("y");
		assertThat(run("stream all undeploy")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("DELETE /streams/deployments");
		assertThat(output()).isEqualTo("Un-deployed all the streams\n");
	}

	@Test
	void asksBeforeDestroyingAllStreamsUnlessForced() {
		this.runner = runner(this.admin.uri(), true);
		this.admin.answer("DELETE", "/streams/definitions", 200, "");
		this.answers.add("yes");
		assertThat(run("stream all destroy")).isTrue();
		assertThat(run("stream all destroy --force")).isTrue();
		assertThat(this.prompts).containsExactly("Really destroy all streams? [y, n]: ");
		assertThat(this.admin.requests()).hasSize(2);
		assertThat(output()).isEqualTo("Destroyed all the streams\nDestroyed all the streams\n");
	}

	@Test
	void listsContainers() {
		this.admin.answer("GET", "/runtime/containers", 200, page("""
				{"containerId":"c-1","groups":"g1,g2","deploymentSize":2,"deployedModules":[],
				 "messageRates":{"ticktock.sink.log.1":{"input":12.5},"ticktock.source.time.0":{"output":1}},
				 "attributes":{"id":"c-1","host":"h1","ip":"10.0.0.1","pid":"123","groups":"g1,g2","zone":"a","rack":"7"}}""",
				"""
						{"containerId":"c-2","groups":"","deploymentSize":0,"deployedModules":[],"messageRates":{},
						 "attributes":{"id":"c-2","host":"h2","ip":"10.0.0.2","pid":456,"groups":""}}"""));
		assertThat(run("runtime containers")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("GET /runtime/containers");
		assertThat(output()).isEqualTo("""
				Container Id  Host  IP Address  PID  Groups  Custom Attributes  Message Rates
				------------  ----  ----------  ---  ------  -----------------  ---------------------------------------------------------------------
				c-1           h1    10.0.0.1    123  g1,g2   zone=a, rack=7     ticktock.sink.log.1: input=12.50; ticktock.source.time.0: output=1.00
				c-2           h2    10.0.0.2    456
				""");
	}

	@Test
	void listsRuntimeModulesOfAContainer() {
		this.admin.answer("GET", "/runtime/modules?containerId=c-1", 200, page("""
				{"moduleId":"ticktock.sink.log.1","name":"log","moduleType":"sink","containerId":"c-1",
				 "moduleOptions":{"level":"INFO"},"deploymentProperties":{"count":"1"},
				 "deploymentStatus":"deployed","messageRate":12.5,"errors":0,"errorRate":0.0,"deadLetters":0}""", """
				{"moduleId":"ticktock.source.time.0","name":"time","moduleType":"source","containerId":"c-1",
				 "moduleOptions":{},"deploymentProperties":{"count":"1","criteria":"groups.contains('a')"},
				 "deploymentStatus":"deploying","messageRate":null}"""));
		assertThat(run("runtime modules --containerId c-1")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("GET /runtime/modules?containerId=c-1");
		assertThat(output()).isEqualTo("""
				Module Id               Container Id  Options     Deployment Properties                   Unit status  Message Rate  Error Rate  Errors  Dead Letters
				----------------------  ------------  ----------  --------------------------------------  -----------  ------------  ----------  ------  ------------
				ticktock.sink.log.1     c-1           level=INFO  count=1                                 deployed     12.50         0.00        0       0
				ticktock.source.time.0  c-1                       count=1, criteria=groups.contains('a')  deploying
				""");
	}

	@Test
	void showsAModulesFailuresOnMessagesAndItsLastError() {
		this.admin.answer("GET", "/runtime/modules", 200, page("""
				{"moduleId":"s.processor.transform.1","containerId":"c-1","moduleOptions":{},"deploymentProperties":{},
				 "deploymentStatus":"deployed","messageRate":1.0,"errors":42,"errorRate":3.0,"deadLetters":14,
				 "lastError":{"time":"2026-11-26T15:13:17.233Z","reason":"EL1004E: Method call: no toUpperCase()"}}"""));
		assertThat(run("runtime modules")).isTrue();
		assertThat(output()).contains("Error Rate  Errors  Dead Letters", "deployed     1.00          3.00        42      14")
			.endsWith("Module s.processor.transform.1 last failed on a message at 2026-11-26T15:13:17.233Z: "
					+ "EL1004E: Method call: no toUpperCase()\n");
	}

	@Test
	void saysWhyAModuleFailed() {
		this.admin.answer("GET", "/runtime/modules", 200, page("""
				{"moduleId":"s.sink.log.1","containerId":"c-1","moduleOptions":{},"deploymentProperties":{},
				 "deploymentStatus":"failed","error":"KafkaMessageBus does not support consumer property: colour"}"""));
		assertThat(run("runtime modules")).isTrue();
		assertThat(output()).endsWith(
				"Module s.sink.log.1 failed: KafkaMessageBus does not support consumer property: colour\n");
	}

	@Test
	void passesBothRuntimeModuleFilters() {
		this.admin.answer("GET", "/runtime/modules?containerId=c+1&moduleId=ticktock.sink.log.1", 200, EMPTY_PAGE);
		assertThat(run("runtime modules --moduleId ticktock.sink.log.1 --containerId \"c 1\"")).isTrue();
		assertThat(this.admin.onlyRequest().path())
			.isEqualTo("/runtime/modules?containerId=c+1&moduleId=ticktock.sink.log.1");
	}

	@Test
	void listsTheAuditTrailNewestFirstWithFiltersAndShortensLongCells() {
		this.admin.answer("GET", "/audit-records?user=creator&action=stream.&size=2", 200, """
				{"links":[],"content":[
				 {"time":"2026-11-23T10:15:31.002Z","user":"creator","action":"stream.create","target":"s1",
				  "outcome":"failure","status":409,"reason":"There is already a stream named 's1'",
				  "details":{"definition":"time | log","deploy":"false"}},
				 {"time":"2026-11-23T10:15:30.001Z","user":"creator","action":"stream.create","target":"db",
				  "outcome":"success","details":{"definition":"time | jdbc --username=sa --password=****** --tableName=ticks",
				  "deploy":"false"}}],
				 "page":{"size":2,"totalElements":5,"totalPages":3,"number":0}}""");
		assertThat(run("audit list --user creator --action stream. --size 2")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("GET /audit-records?user=creator&action=stream.&size=2");
		assertThat(output()).isEqualTo("""
				Time                      User     Action         Target  Outcome                                            Details
				------------------------  -------  -------------  ------  -------------------------------------------------  ------------------------------------------------------------
				2026-11-23T10:15:31.002Z  creator  stream.create  s1      failure 409: There is already a stream named 's1'  definition=time | log, deploy=false
				2026-11-23T10:15:30.001Z  creator  stream.create  db      success                                            definition=time | jdbc --username=sa --password=****** --...
				The newest 2 of 5 records; --size shows more
				""");
	}

	@Test
	void refusesAnAuditListSizeThatIsNotANumber() {
		assertThat(run("audit list --size many")).isFalse();
		assertThat(output()).isEqualTo("Command failed: --size must be a number, not 'many'\n");
		assertThat(this.admin.requests()).isEmpty();
	}

	@Test
	void listsDisplaysAndDeletesCountersAsSpringXdDid() {
		this.admin.answer("GET", "/metrics/counters?size=10000", 200,
				page("{\"name\":\"clicks\",\"links\":[]}", "{\"name\":\"views\",\"links\":[]}"));
		this.admin.answer("GET", "/metrics/counters/clicks", 200, "{\"name\":\"clicks\",\"value\":12345}");
		this.admin.answer("DELETE", "/metrics/counters/clicks", 200, "{\"message\":\"Deleted counter 'clicks'\"}");
		assertThat(run("counter list")).isTrue();
		assertThat(run("counter display clicks")).isTrue();
		assertThat(run("counter display --name clicks --pattern #,##0.0")).isTrue();
		assertThat(run("counter delete --name clicks")).isTrue();
		assertThat(this.admin.requests().stream().map(Request::toString)).containsExactly(
				"GET /metrics/counters?size=10000", "GET /metrics/counters/clicks", "GET /metrics/counters/clicks",
				"DELETE /metrics/counters/clicks");
		assertThat(output()).isEqualTo("""
				Counter name
				------------
				clicks
				views
				12345
				12,345.0
				Deleted counter 'clicks'
				""");
	}

	@Test
	void displaysFieldValueCountsHighestFirstUpToTheSize() {
		this.admin.answer("GET", "/metrics/field-value-counters/devices", 200, """
				{"name":"devices","counts":{"phone":3.0,"tablet":2.0,"watch":1.0}}""");
		assertThat(run("field-value-counter display devices --size 2")).isTrue();
		assertThat(output()).isEqualTo("""
				FieldValueCounter=devices
				VALUE   COUNT
				------  -----
				phone   3
				tablet  2
				The 2 highest of 3 values; --size shows more
				""");
	}

	@Test
	void displaysAggregateCountsBetweenTwoTimesAtAResolution() {
		this.admin.answer("GET", "/metrics/aggregate-counters/hits?resolution=hour&from=2026-11-26+08%3A00%3A00"
				+ "&to=2026-11-26T10%3A15%3A00Z", 200, """
				{"name":"hits","counts":{"2026-11-26T08:00:00.000Z":4,"2026-11-26T09:00:00.000Z":0,
				"2026-11-26T10:00:00.000Z":3}}""");
		assertThat(run("aggregate-counter display hits --from '2026-11-26 08:00:00' --to 2026-11-26T10:15:00Z "
				+ "--resolution hour")).isTrue();
		assertThat(output()).isEqualTo("""
				AggregateCounter=hits
				TIME                      COUNT
				------------------------  -----
				2026-11-26T08:00:00.000Z  4
				2026-11-26T09:00:00.000Z  0
				2026-11-26T10:00:00.000Z  3
				""");
		assertThat(run("aggregate-counter display hits --lastHours 2 --lastDays 1")).isFalse();
		assertThat(output()).endsWith("Command failed: Give only one of --from, --lastHours and --lastDays\n");
	}

	@Test
	void displaysGaugesAndRichGaugesAndDeletesThem() {
		this.admin.answer("GET", "/metrics/gauges/temperature", 200, "{\"name\":\"temperature\",\"value\":-4}");
		this.admin.answer("GET", "/metrics/rich-gauges/load", 200, """
				{"name":"load","value":9.0,"alpha":-1.0,"average":5.0,"max":9.0,"min":2.0,"count":3}""");
		this.admin.answer("DELETE", "/metrics/rich-gauges/load", 200, "{}");
		this.admin.answer("DELETE", "/metrics/aggregate-counters/hits", 404,
				"[{\"logref\":\"NoSuchMetricException\",\"message\":\"There is no aggregate-counter named 'hits'\"}]");
		assertThat(run("gauge display temperature")).isTrue();
		assertThat(run("rich-gauge display load --pattern 0.00")).isTrue();
		assertThat(run("rich-gauge delete load")).isTrue();
		assertThat(run("aggregate-counter delete hits")).isFalse();
		assertThat(output()).startsWith("""
				-4
				RichGauge=load
				Name     Value
				-------  -----
				value    9.00
				alpha    -1.00
				average  5.00
				max      9.00
				min      2.00
				count    3.00
				Deleted richgauge 'load'
				""").contains("There is no aggregate-counter named 'hits'");
	}

	@Test
	void listsModulesByType() {
		this.admin.answer("GET", "/modules?size=1000", 200,
				page("{\"name\":\"http\",\"type\":\"source\"}", "{\"name\":\"time\",\"type\":\"source\"}",
						"{\"name\":\"transform\",\"type\":\"processor\"}", "{\"name\":\"log\",\"type\":\"sink\"}",
						"{\"name\":\"file\",\"type\":\"sink\"}", "{\"name\":\"hdfs\",\"type\":\"sink\"}"));
		assertThat(run("module list")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("GET /modules?size=1000");
		assertThat(output()).isEqualTo("""
				Source  Processor  Sink
				------  ---------  ----
				http    transform  log
				time               file
				                   hdfs
				""");
	}

	@Test
	void showsModuleOptions() {
		this.admin.answer("GET", "/modules/source/time", 200, """
				{"name":"time","type":"source","description":"Emits the time",
				 "options":[{"name":"fixedDelay","type":"int","defaultValue":"1","description":"time between messages"},
				            {"name":"format","type":"String","defaultValue":null,"description":"date format"}]}""");
		assertThat(run("module info source:time")).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("GET /modules/source/time");
		assertThat(output()).isEqualTo("""
				Information about source module 'time':
				Option Name  Description            Default  Type
				-----------  ---------------------  -------  ------
				fixedDelay   time between messages  1        int
				format       date format                     String
				""");
	}

	@Test
	void registersAModuleByMavenCoordinates() {
		this.admin.answer("POST", "/modules/processor/myproc", 201, """
				{"name":"myproc","type":"processor","custom":true,"sha256":"ab12","options":[]}""");
		assertThat(run("module register --type processor --name myproc --uri maven://com.example:myproc:1.0.0"))
			.isTrue();
		assertFormPost(this.admin.onlyRequest(), "/modules/processor/myproc",
				Map.of("uri", "maven://com.example:myproc:1.0.0", "force", "false"));
		assertThat(output()).isEqualTo("Successfully registered module 'processor:myproc' from "
				+ "maven://com.example:myproc:1.0.0 (SHA-256 ab12)\n");
	}

	@Test
	void uploadsAJarAsTheRequestBody(@TempDir Path dir) throws IOException {
		Path jar = Files.write(dir.resolve("myproc.jar"), new byte[] { 'P', 'K', 3, 4 });
		this.admin.answer("POST", "/modules/sink/mysink?force=true", 201, """
				{"name":"mysink","type":"sink","custom":true,"sha256":"cd34","options":[]}""");
		assertThat(run("module upload --type sink --name mysink --file " + jar + " --force")).isTrue();
		Request request = this.admin.onlyRequest();
		assertThat(request.contentType()).isEqualTo("application/octet-stream");
		assertThat(request.body()).isEqualTo("PK\u0003\u0004");
		assertThat(output()).isEqualTo("Successfully uploaded module 'sink:mysink' (SHA-256 cd34)\n");
	}

	@Test
	void deletesAModuleAndReportsWhyItCannot() {
		this.admin.answer("DELETE", "/modules/processor/myproc", 409, """
				[{"logref":"ModuleInUseException","message":"Module processor:myproc is used by deployed streams s"}]""");
		assertThat(run("module delete processor:myproc")).isFalse();
		assertThat(output()).contains("Module processor:myproc is used by deployed streams s");
	}

	@Test
	void rejectsModuleNameWithoutType() {
		assertThat(run("module info --name time")).isFalse();
		assertThat(this.admin.requests()).isEmpty();
		assertThat(output()).isEqualTo(
				"Command failed: A module is named as type:name, such as 'source:time', not 'time'\n");
	}

	@Test
	void targetsAnotherAdminServer() throws IOException {
		try (FakeAdminServer other = new FakeAdminServer()) {
			other.answer("GET", "/", 200, "{\"links\":[]}");
			other.answer("GET", "/streams/definitions?size=1000", 200, EMPTY_PAGE);
			assertThat(run("admin config server " + other.uri() + "/")).isTrue();
			assertThat(run("admin config info")).isTrue();
			assertThat(run("stream list")).isTrue();
			assertThat(other.requests()).extracting(Request::toString)
				.containsExactly("GET /", "GET /streams/definitions?size=1000");
			assertThat(output()).startsWith("Successfully targeted " + other.uri() + "\n"
					+ "Admin server: " + other.uri() + "\n");
		}
		assertThat(this.admin.requests()).isEmpty();
	}

	@Test
	void countsNotFoundAtRootAsReachable() {
		assertThat(run("admin config server --uri " + this.admin.uri())).isTrue();
		assertThat(this.admin.onlyRequest().toString()).isEqualTo("GET /");
		assertThat(output()).isEqualTo("Successfully targeted " + this.admin.uri() + "\n");
	}

	@Test
	void reportsUnreachableAdminServerWhenTargeting() throws IOException {
		URI closed = closedPort();
		assertThat(run("admin config server " + closed)).isFalse();
		assertThat(output()).isEqualTo("Unable to contact XD Admin Server at '" + closed + "'.\n");
		this.output.getBuffer().setLength(0);
		assertThat(run("admin config info")).isTrue();
		assertThat(output()).isEqualTo("Admin server: " + closed + "\n");
	}

	@Test
	void reportsServerErrorMessageWithItsLineBreaks() {
		this.admin.answer("POST", "/streams/definitions", 400, """
				[{"logref":"StreamDefinitionException","message":"XD105E:(pos 7): unexpected data in stream definition '|'\\ntime | | log\\n       ^","links":[]}]""");
		assertThat(run("stream create bad --definition \"time | | log\"")).isFalse();
		assertThat(output()).isEqualTo("""
				Command failed: XD105E:(pos 7): unexpected data in stream definition '|'
				time | | log
				       ^
				""");
	}

	@Test
	void reportsNotFound() {
		this.admin.answer("DELETE", "/streams/definitions/nope", 404,
				"[{\"logref\":\"NoSuchDefinitionException\",\"message\":\"There is no stream definition named 'nope'\"}]");
		assertThat(run("stream destroy nope")).isFalse();
		assertThat(output()).isEqualTo("Command failed: There is no stream definition named 'nope'\n");
	}

	@Test
	void reportsErrorWithoutJsonBody() {
		this.admin.answer("GET", "/streams/definitions?size=1000", 500, "");
		assertThat(run("stream list")).isFalse();
		assertThat(output()).isEqualTo("Command failed: The admin server answered GET /streams/definitions?size=1000"
				+ " with HTTP status 500\n");
	}

	@Test
	void reportsConnectionRefusedOnOneLine() throws IOException {
		URI closed = closedPort();
		this.runner = runner(closed, false);
		assertThat(run("stream list")).isFalse();
		assertThat(output()).isEqualTo("Command failed: Unable to contact XD Admin Server at '" + closed + "'.\n");
	}

	@Test
	void reportsCommandLineErrorsWithoutSendingAnything() {
		assertThat(run("stream create ticktock")).isFalse();
		assertThat(run("stream lst")).isFalse();
		assertThat(this.admin.requests()).isEmpty();
		assertThat(output()).isEqualTo("""
				Command failed: Missing required option '--definition' for command 'stream create'
				Command failed: Unknown command 'stream lst'. Did you mean one of: stream all destroy, \
				stream all undeploy, stream create, stream deploy, stream destroy, stream history, stream list, \
				stream manifest, stream rollback, stream scale app instances, stream undeploy, stream update?
				""");
	}

	@Test
	void listsCommands() {
		assertThat(run("help")).isTrue();
		assertThat(output()).startsWith("Available commands:\n")
			.contains("  stream create                Create a new stream definition\n")
			.contains("  admin config server          Target an admin server\n")
			.contains("  stream scale app instances   Scale one module of a deployed stream to a number of instances\n")
			.contains("  field-value-counter display  Display the counts of a field-value counter, highest first\n")
			.endsWith("Type 'help <command>' or '<command> --help' for the options of a command.\n");
	}

	@Test
	void showsUsageOfACommand() {
		String usage = """
				stream deploy - Deploy a previously created stream
				Usage: stream deploy [--name] <name> [--properties <properties>] [--propertiesFile <propertiesFile>]
				Options:
				  --name            the name of the stream to deploy (required)
				  --properties      deployment properties, such as "module.log.count=2,module.*.criteria=groups.contains('a')"
				  --propertiesFile  a Java properties file with the deployment properties
				""";
		assertThat(run("help stream deploy")).isTrue();
		assertThat(run("stream deploy --help")).isTrue();
		assertThat(output()).isEqualTo(usage + usage);
		assertThat(this.admin.requests()).isEmpty();
	}

	@Test
	void quitAsksTheShellToStop() {
		assertThat(this.runner.session().exitRequested()).isFalse();
		assertThat(run("quit")).isTrue();
		assertThat(this.runner.session().exitRequested()).isTrue();
		assertThat(output()).isEmpty();
	}

	/** A local URI nothing listens on. */
	static URI closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return URI.create("http://127.0.0.1:" + socket.getLocalPort());
		}
	}

}
