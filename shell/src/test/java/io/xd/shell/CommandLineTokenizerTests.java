package io.xd.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.xd.shell.CommandLineTokenizer.Token;
import org.junit.jupiter.api.Test;

class CommandLineTokenizerTests {

	private final CommandLineTokenizer tokenizer = new CommandLineTokenizer();

	private List<String> words(String line) {
		return this.tokenizer.tokenize(line).stream().map(Token::value).toList();
	}

	@Test
	void splitsOnWhiteSpace() {
		assertThat(words("  stream   list\t ")).containsExactly("stream", "list");
	}

	@Test
	void blankLineHasNoWords() {
		assertThat(words("   ")).isEmpty();
	}

	@Test
	void keepsPositionalFirstArgumentAndQuotedValueWithPipes() {
		assertThat(words("stream create ticktock --definition \"time | log\""))
			.containsExactly("stream", "create", "ticktock", "--definition", "time | log");
	}

	@Test
	void keepsSingleQuotesInsideDoubleQuotes() {
		assertThat(words("--definition \"http | transform --expression='hello world' | log\""))
			.containsExactly("--definition", "http | transform --expression='hello world' | log");
	}

	@Test
	void acceptsSingleQuotedValues() {
		assertThat(words("--definition 'time | log --expression=\"a b\"'"))
			.containsExactly("--definition", "time | log --expression=\"a b\"");
	}

	@Test
	void unescapesQuoteAndBackslashInsideQuotes() {
		assertThat(words("--definition \"say \\\"hi\\\" | log\" --x \"a\\\\\""))
			.containsExactly("--definition", "say \"hi\" | log", "--x", "a\\");
	}

	@Test
	void keepsOtherBackslashesAsTheyAre() {
		assertThat(words("--expression \"payload matches '\\d+'\" path\\to"))
			.containsExactly("--expression", "payload matches '\\d+'", "path\\to");
	}

	@Test
	void joinsAdjacentQuotedAndUnquotedParts() {
		assertThat(words("ab\"c d\"e")).containsExactly("abc de");
	}

	@Test
	void keepsEmptyQuotedValue() {
		assertThat(this.tokenizer.tokenize("--properties \"\""))
			.containsExactly(new Token("--properties", false), new Token("", true));
	}

	@Test
	void marksQuotedWords() {
		assertThat(this.tokenizer.tokenize("--name \"--odd\""))
			.containsExactly(new Token("--name", false), new Token("--odd", true));
	}

	@Test
	void rejectsUnclosedQuote() {
		assertThatThrownBy(() -> this.tokenizer.tokenize("stream create x --definition \"time | log"))
			.isInstanceOf(CommandLineException.class)
			.hasMessageContaining("double quote is not closed");
	}

	@Test
	void escapedQuoteDoesNotCloseTheValue() {
		assertThatThrownBy(() -> this.tokenizer.tokenize("--definition \"time \\\""))
			.isInstanceOf(CommandLineException.class);
	}

}
