package io.xd.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableTests {

	@Test
	void alignsColumnsUnderADashedHeader() {
		String table = new Table("Stream Name", "Stream Definition", "Status").row("ticktock", "time | log", "deployed")
			.row("a", "http --port=9000 | file", "undeployed")
			.render();
		assertThat(table).isEqualTo("""
				Stream Name  Stream Definition        Status
				-----------  -----------------------  ----------
				ticktock     time | log               deployed
				a            http --port=9000 | file  undeployed
				""");
	}

	@Test
	void emptyTableHasHeaderOnly() {
		assertThat(new Table("A", "Bee").render()).isEqualTo("A  Bee\n-  ---\n");
	}

	@Test
	void leavesNoTrailingSpacesAndFillsMissingCells() {
		String table = new Table("Name", "Value").row("a-long-name").row(null, "v").render();
		assertThat(table).isEqualTo("""
				Name         Value
				-----------  -----
				a-long-name
				             v
				""");
	}

	@Test
	void flattensLineBreaksInCells() {
		assertThat(new Table("X").row("one\ntwo\r\n\tthree").render()).isEqualTo("""
				X
				-------------
				one two three
				""");
	}

	@Test
	void rejectsRowWiderThanTheHeader() {
		assertThatThrownBy(() -> new Table("A").row("1", "2")).isInstanceOf(IllegalArgumentException.class);
	}

}
