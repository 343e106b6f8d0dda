package io.xd.admin.stream;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.xd.admin.AdminException;
import io.xd.modules.internal.ModuleRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Module expressions are checked when a stream is planned (created), not when a message arrives. */
class StreamPlannerExpressionTests {

	private final StreamPlanner planner = new StreamPlanner(ModuleRegistry.fromClassPath());

	@Test
	void acceptsAnAllowedExpression() {
		StreamPlan plan = this.planner.plan("upper", "time | transform --expression=payload.toUpperCase() | log",
				name -> Optional.empty());
		assertThat(plan.modules()).hasSize(3);
	}

	@Test
	void refusesAForbiddenExpressionWith400NamingTheModuleAndTheOption() {
		assertThatExceptionOfType(AdminException.class)
			.isThrownBy(() -> this.planner.plan("evil",
					"time | transform --expression='T(java.lang.Runtime).getRuntime()' | log", name -> Optional.empty()))
			.satisfies(ex -> {
				assertThat(ex.status()).isEqualTo(400);
				assertThat(ex.logref()).isEqualTo("ModuleOptionException");
				assertThat(ex.getMessage()).isEqualTo("Invalid options for module processor:transform: option "
						+ "'expression' expects a SpEL expression, but got 'T(java.lang.Runtime).getRuntime()' "
						+ "(type references T(...) are not allowed)");
			});
	}

	@Test
	void refusesARegexInAFilterAndABeanInTheLogSink() {
		assertThatExceptionOfType(AdminException.class)
			.isThrownBy(() -> this.planner.plan("regex", "time | filter --expression=\"payload matches '(a+)+b'\" | log",
					name -> Optional.empty()))
			.withMessageContaining("processor:filter: option 'expression'")
			.withMessageContaining("the 'matches' operator is not allowed");
		assertThatExceptionOfType(AdminException.class)
			.isThrownBy(() -> this.planner.plan("bean", "time | log --expression=@bean", name -> Optional.empty()))
			.withMessageContaining("sink:log: option 'expression'");
	}
}
