/**
 * The module SPI: what a module author implements and compiles against. Its names are public API and stay stable.
 * <ul>
 * <li>{@link io.xd.modules.Source}, {@link io.xd.modules.Processor} and {@link io.xd.modules.Sink}, the three kinds
 * of {@link io.xd.modules.Module}, and their lifecycle;</li>
 * <li>{@link io.xd.modules.ModuleProvider}, found with {@link java.util.ServiceLoader}, which declares a module's
 * {@link io.xd.modules.ModuleMetadata} (its {@link io.xd.modules.ModuleType}, name and typed
 * {@link io.xd.modules.ModuleOption}s) and creates instances for a {@link io.xd.modules.ModuleContext};</li>
 * <li>helpers for writing modules: {@link io.xd.modules.ModuleMessages} for hot-path messages and
 * {@link io.xd.modules.IntegrationModules} for modules written as Spring Integration flows.</li>
 * </ul>
 * {@code io.xd.modules.builtin} holds the modules XD ships, written against this package like any other module;
 * {@code io.xd.modules.internal} is the runtime's own and not for module authors.
 */
package io.xd.modules;
