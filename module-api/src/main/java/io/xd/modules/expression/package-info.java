/**
 * Safe SpEL for module options: {@link io.xd.modules.expression.SafeExpression} parses and checks an expression
 * when a stream is created and evaluates it on messages in a restricted, read-only context. Declare such an option
 * with {@link io.xd.modules.ModuleOption#ofExpression(String)}.
 */
package io.xd.modules.expression;
