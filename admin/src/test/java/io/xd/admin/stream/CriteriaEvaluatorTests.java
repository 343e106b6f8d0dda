package io.xd.admin.stream;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.xd.core.cluster.ContainerAttributes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CriteriaEvaluatorTests {

	private static final ContainerAttributes EAST = new ContainerAttributes("c1", "node1", "10.0.0.1", "42",
			"east, fast", Map.of("rack", "r7"));

	@ParameterizedTest
	@ValueSource(strings = { "groups.contains('east')", "host == 'node1'", "host.startsWith('node') and rack == 'r7'",
			"groups.contains('fast') or groups.contains('slow')", "!groups.contains('west')", "ip.startsWith('10.')" })
	void matchesOnAttributesAndGroups(String criteria) {
		CriteriaEvaluator.validate(criteria);
		assertThat(CriteriaEvaluator.matches(criteria, EAST)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "groups.contains('west')", "host == 'node2'", "rack", "host", "nosuch == 'x'" })
	void anythingButTrueMatchesNothing(String criteria) {
		assertThat(CriteriaEvaluator.matches(criteria, EAST)).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "T(java.lang.Runtime).getRuntime().exec('id')", "new java.io.File('/').delete()",
			"@bean.x", "#env", "#this.getClass()", "host = 'x'", "T(String).valueOf(1) == '1'",
			"groups.contains(T(java.lang.System).getenv('HOME'))", "'a'.repeat(100000000) != null",
			"ip matches '(a+)+b'", "host.replaceAll('(a+)+b', '') == ''" })
	void refusesTypesConstructorsBeansVariablesAssignmentsAndMethodsOutsideTheAllowlist(String criteria) {
		assertThatIllegalArgumentException().isThrownBy(() -> CriteriaEvaluator.validate(criteria))
			.withMessageContaining("criteria '" + criteria + "'");
		assertThat(CriteriaEvaluator.matches(criteria, EAST)).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "((", "host ==", "'a' +", "groups.contains(" })
	void refusesWhatDoesNotParse(String criteria) {
		assertThatIllegalArgumentException().isThrownBy(() -> CriteriaEvaluator.validate(criteria))
			.withMessageContaining("not a valid expression");
	}

	@ParameterizedTest
	@ValueSource(strings = { "getClass().forName('java.lang.Runtime')", "host.getClass().getClassLoader()" })
	void cannotReachClassesThroughMethods(String criteria) {
		assertThat(CriteriaEvaluator.matches(criteria + " != null", EAST)).isFalse();
	}
}
