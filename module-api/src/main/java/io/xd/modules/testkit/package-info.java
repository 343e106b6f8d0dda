/**
 * Testing modules without a server or broker: {@link io.xd.modules.testkit.ModuleTestDriver} runs one module with
 * given options, feeds it messages and collects what it sends.
 */
package io.xd.modules.testkit;
