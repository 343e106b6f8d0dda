/**
 * The stream definition language: {@code [name =] [source-channel >] module (| module)* [> sink-channel]}.
 * <p>
 * {@link io.xd.admin.dsl.StreamParser} turns a definition such as
 * {@code ticktock = time --fixedDelay=5 | log} into an immutable {@link io.xd.admin.dsl.StreamDefinition}: its modules
 * in order, each with a label, a name, a type inferred from its position and its options, plus the named channels
 * the stream reads from or writes to. Any mistake is reported as a {@link io.xd.admin.dsl.DslException} that names
 * a stable {@link io.xd.admin.dsl.DslErrorCode}, the character offset of the problem and what was expected there.
 * <p>
 * Parsing is purely syntactic: whether a module of that name and type exists, or whether its options are known, is
 * decided later against the module registry.
 */
package io.xd.admin.dsl;
