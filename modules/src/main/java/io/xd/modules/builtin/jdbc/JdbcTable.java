package io.xd.modules.builtin.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The database side of the {@code jdbc} sink: checks names and URLs, connects, creates the table when asked, finds
 * the columns' types and inserts rows in batches. Not thread-safe: the sink serialises calls.
 */
final class JdbcTable {

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

	private final JdbcDatabase database;

	private final String tableName;

	private final List<String> columns;

	private Connection connection;

	private int[] types;

	JdbcTable(JdbcDatabase database, String tableName, List<String> columns) {
		this.database = database;
		this.tableName = tableName;
		this.columns = List.copyOf(columns);
	}

	/** Whether {@code name} is a plain SQL identifier, optionally qualified by a schema ({@code schema.table}). */
	static boolean isTableName(String name) {
		String[] parts = name.split("\\.", -1);
		return parts.length <= 2 && Arrays.stream(parts).allMatch(part -> IDENTIFIER.matcher(part).matches());
	}

	/** Whether {@code list} is a comma-separated list of distinct plain SQL identifiers. */
	static boolean isColumnList(String list) {
		List<String> names = columnList(list);
		return !names.isEmpty() && names.stream().allMatch(name -> IDENTIFIER.matcher(name).matches())
				&& names.stream().map(name -> name.toLowerCase(Locale.ROOT)).distinct().count() == names.size();
	}

	static List<String> columnList(String list) {
		List<String> names = new ArrayList<>();
		for (String name : list.split(",", -1)) {
			names.add(name.strip());
		}
		return names;
	}

	/**
	 * Whether {@code url} is a PostgreSQL or H2 JDBC URL; whether the operator allows it, with its parameters, is
	 * {@link JdbcUrls#check}'s to say.
	 */
	static boolean isSupportedUrl(String url) {
		String lower = url.toLowerCase(Locale.ROOT);
		return (lower.startsWith("jdbc:postgresql:") || lower.startsWith("jdbc:h2:")) && url.indexOf('\0') < 0;
	}

	/**
	 * Connects, creates the table if asked, and learns the columns' types.
	 * @throws SQLException when the database refuses the connection, or the table or a column is missing
	 */
	void open(boolean initialize) throws SQLException {
		this.connection = this.database.connect();
		this.connection.setAutoCommit(true);
		if (initialize) {
			try (Statement statement = this.connection.createStatement()) {
				statement.execute("CREATE TABLE IF NOT EXISTS " + this.tableName + " ("
						+ this.columns.stream().map(column -> column + " VARCHAR(2000)").collect(Collectors.joining(", "))
						+ ")");
			}
		}
		this.types = columnTypes();
	}

	private int[] columnTypes() throws SQLException {
		Map<String, Integer> found = tableColumns();
		if (found.isEmpty()) {
			throw new SQLException("The table " + this.tableName + " does not exist; create it or give --initialize=true");
		}
		int[] result = new int[this.columns.size()];
		List<String> missing = new ArrayList<>();
		for (int i = 0; i < result.length; i++) {
			Integer type = found.get(this.columns.get(i).toLowerCase(Locale.ROOT));
			if (type == null) {
				missing.add(this.columns.get(i));
			}
			else {
				result[i] = type;
			}
		}
		if (!missing.isEmpty()) {
			throw new SQLException("The table " + this.tableName + " has no column " + String.join(", ", missing)
					+ "; it has " + String.join(", ", found.keySet()));
		}
		return result;
	}

	private Map<String, Integer> tableColumns() throws SQLException {
		DatabaseMetaData metaData = this.connection.getMetaData();
		int dot = this.tableName.indexOf('.');
		String schema = (dot < 0) ? null : this.tableName.substring(0, dot);
		String table = this.tableName.substring(dot + 1);
		for (String[] candidate : new String[][] { { schema, table },
				{ lower(schema), table.toLowerCase(Locale.ROOT) }, { upper(schema), table.toUpperCase(Locale.ROOT) } }) {
			Map<String, Integer> columns = new LinkedHashMap<>();
			try (ResultSet rows = metaData.getColumns(null, candidate[0], candidate[1], null)) {
				while (rows.next()) {
					columns.putIfAbsent(rows.getString("COLUMN_NAME").toLowerCase(Locale.ROOT), rows.getInt("DATA_TYPE"));
				}
			}
			if (!columns.isEmpty()) {
				return columns;
			}
		}
		return Map.of();
	}

	private static String lower(String text) {
		return (text == null) ? null : text.toLowerCase(Locale.ROOT);
	}

	private static String upper(String text) {
		return (text == null) ? null : text.toUpperCase(Locale.ROOT);
	}

	/**
	 * Inserts the rows in one batch, each value converted by the driver to its column's type. On failure the
	 * connection is dropped and made anew on the next call.
	 */
	void insert(List<List<String>> rows) throws SQLException {
		if (this.connection == null) {
			open(false);
		}
		String sql = "INSERT INTO " + this.tableName + " (" + String.join(", ", this.columns) + ") VALUES ("
				+ this.columns.stream().map(column -> "?").collect(Collectors.joining(", ")) + ")";
		try (PreparedStatement statement = this.connection.prepareStatement(sql)) {
			for (List<String> row : rows) {
				for (int i = 0; i < this.types.length; i++) {
					bind(statement, i + 1, row.get(i), this.types[i]);
				}
				statement.addBatch();
			}
			statement.executeBatch();
		}
		catch (SQLException ex) {
			close();
			throw ex;
		}
	}

	private static void bind(PreparedStatement statement, int index, String value, int type) throws SQLException {
		if (value == null) {
			statement.setNull(index, type);
		}
		else if (type == Types.VARCHAR || type == Types.CHAR || type == Types.LONGVARCHAR || type == Types.NVARCHAR
				|| type == Types.CLOB) {
			statement.setString(index, value);
		}
		else {
			statement.setObject(index, value, type);
		}
	}

	void close() {
		if (this.connection != null) {
			try {
				this.connection.close();
			}
			catch (SQLException ex) {
				// the connection is being dropped either way
			}
			this.connection = null;
		}
	}
}
