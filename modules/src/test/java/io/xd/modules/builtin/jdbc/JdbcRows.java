package io.xd.modules.builtin.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reads query results as rows of text, for assertions. */
final class JdbcRows {

	private JdbcRows() {
	}

	/** Runs {@code sql} on the connection, closes it, and returns each row's values as text (null stays null). */
	static List<List<String>> query(Connection connection, String sql) throws SQLException {
		try (connection; Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
			List<List<String>> result = new ArrayList<>();
			int count = rows.getMetaData().getColumnCount();
			while (rows.next()) {
				List<String> row = new ArrayList<>();
				for (int i = 1; i <= count; i++) {
					row.add(rows.getString(i));
				}
				result.add(row);
			}
			return result;
		}
	}

	static List<String> nulls(int count) {
		return Arrays.asList(new String[count]);
	}
}
