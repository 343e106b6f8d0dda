package io.xd.server.security;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class CrossSiteRequestFilterTests {

	private static final List<String> ALLOWED = List.of("xd.example.com");

	@ParameterizedTest
	@ValueSource(strings = { "localhost", "localhost:9393", "LOCALHOST:9393", "127.0.0.1", "127.0.0.1:9393",
			"127.1.2.3:80", "10.0.0.7:9393", "[::1]:9393", "[::1]", "[fe80::1]:9393", "[::ffff:127.0.0.1]",
			"xd.example.com", "XD.Example.COM:9393" })
	void answersToIpLiteralsLocalhostAndAllowedNames(String host) {
		assertThat(CrossSiteRequestFilter.isAllowedHost(host, ALLOWED)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "127.0.0.1.evil.example", "127.evil.example:9393", "localhost.evil.example",
			"localhost.", "evil-localhost", "xd.example.com.evil.example", "evil.xd.example.com", "xd.example.co",
			"127.0.0.256", "127.0.0", "0127.0.0.1", "[::1.evil]", "[evil.example]", "[]", "", "1e100.net",
			"127.0.0.1%2e", "xn--lcalhost-9za" })
	void refusesEveryOtherName(String host) {
		assertThat(CrossSiteRequestFilter.isAllowedHost(host, ALLOWED)).isFalse();
	}
}
