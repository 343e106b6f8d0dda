/**
 * The built-in processors whose work is an expression: {@code transform}, {@code filter}, {@code splitter},
 * {@code header-enricher}, {@code aggregator} and {@code json-path}. Each is written against the public module SPI
 * and {@link io.xd.modules.expression.SafeExpression}, like any third-party module.
 */
package io.xd.modules.builtin.processor;
