package com.example.xd.reverse;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.xd.modules.ModuleOptionException;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReverseProcessorTests {

	@Test
	void reversesTextAndBytes() {
		try (ModuleTestDriver driver = ModuleTestDriver.of(new ReverseProcessor.Provider())) {
			driver.send("stressed");
			driver.send("drawer".getBytes(StandardCharsets.UTF_8));
			assertEquals(List.of("desserts", "reward"), driver.receivedPayloads());
		}
	}

	@Test
	void upperCasesWhenAsked() {
		try (ModuleTestDriver driver = ModuleTestDriver.of(new ReverseProcessor.Provider(),
				Map.of("uppercase", "true"))) {
			driver.send("abc");
			assertEquals(List.of("CBA"), driver.receivedPayloads());
		}
	}

	@Test
	void refusesAnUnknownOptionAsTheServerWould() {
		ModuleOptionException ex = assertThrows(ModuleOptionException.class,
				() -> ModuleTestDriver.of(new ReverseProcessor.Provider(), Map.of("upper", "true")));
		assertTrue(ex.getMessage().contains("valid options are inputType, outputType, uppercase"), ex.getMessage());
	}
}
