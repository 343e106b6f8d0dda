package io.xd.modules.builtin.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;

/**
 * The database a {@code jdbc} module uses, as the {@code jdbc} sink and source name it: a data source the operator
 * declared ({@code --dataSource}), a literal URL the operator allows ({@code --url}, {@link JdbcUrls}), or the
 * embedded H2 database of the data directory; never a password in the definition.
 *
 * @param url the JDBC URL
 * @param username the user, or null
 * @param password the password, or null (from the declared data source only)
 * @param display how messages name the database, without credentials or parameters
 */
record JdbcDatabase(String url, String username, String password, String display) {

	static final ModuleOption<String> DATA_SOURCE = ModuleOption.ofString("dataSource")
		.withDescription("the name of a data source the operator declared (xd.datasources.<name>); without it and "
				+ "without url, an embedded H2 database in <xd.data.dir>/jdbc");

	static final ModuleOption<String> URL = ModuleOption.ofString("url")
		.withRule(JdbcTable::isSupportedUrl, "be a jdbc:postgresql: or jdbc:h2: URL")
		.withDescription("a JDBC URL, accepted only where the operator's xd.modules.jdbc.allowed-urls match it and with "
				+ "harmless parameters only; prefer dataSource");

	static final ModuleOption<String> USERNAME = ModuleOption.ofString("username")
		.withDescription("the database user with url; sa for the embedded H2 database");

	static final ModuleOption<String> PASSWORD = ModuleOption.ofString("password")
		.withDescription("not accepted: a definition carries no password; the operator declares it with the data "
				+ "source (xd.datasources.<name>.password)");

	/** The connection options, in the order {@code module info} lists them. */
	static final List<ModuleOption<?>> OPTIONS = List.of(DATA_SOURCE, URL, USERNAME, PASSWORD);

	@Override
	public String toString() {
		return this.display;
	}

	/** The database a module's options name; the options were checked with {@link #check} before. */
	static JdbcDatabase of(ModuleContext context) {
		String dataSourceName = context.options().get(DATA_SOURCE);
		String url = context.options().get(URL);
		String username = context.options().get(USERNAME);
		if (dataSourceName != null) {
			HostAccess.DataSource dataSource = context.hostAccess().dataSource(DATA_SOURCE.name(), dataSourceName);
			return new JdbcDatabase(dataSource.url(), dataSource.username(), dataSource.password(),
					"data source '" + dataSourceName + "'");
		}
		if (url != null) {
			// checked by checkAccess, at create time by the admin and before create by the container
			return new JdbcDatabase(url, username, null, JdbcUrls.shown(url));
		}
		return new JdbcDatabase("jdbc:h2:file:" + context.dataDirectory().resolve("jdbc").resolve("xd"),
				(username == null) ? "sa" : username, null, "the embedded H2 database");
	}

	/** A new connection to the database. */
	Connection connect() throws SQLException {
		Properties properties = new Properties();
		if (this.username != null) {
			properties.setProperty("user", this.username);
		}
		if (this.password != null) {
			properties.setProperty("password", this.password);
		}
		return DriverManager.getConnection(this.url, properties);
	}

	/**
	 * Checks the database options of a definition: a declared data source, or a literal URL the operator allows, and
	 * never a password.
	 * @param module the module's name, for the message
	 */
	static void check(String module, ModuleOptions options, HostAccess access) {
		if (options.get(PASSWORD) != null) {
			throw new ModuleOptionException(module, List.of("option 'password' is refused: a definition carries no "
					+ "password; the operator declares the database with its password as a data source "
					+ "(xd.datasources.<name>.url, .username, .password), and --dataSource=<name> uses it"));
		}
		String dataSource = options.get(DATA_SOURCE);
		if (dataSource != null) {
			if (options.get(URL) != null || options.get(USERNAME) != null) {
				throw new ModuleOptionException(module, List.of("options 'url' and 'username' are refused with "
						+ "'dataSource': the data source says where and as whom"));
			}
			access.dataSource(DATA_SOURCE.name(), dataSource);
		}
		else if (options.get(URL) != null) {
			JdbcUrls.check(URL.name(), options.get(URL), access);
		}
	}
}
