package dev.bigfleet.proxmox.pvesim;

import dev.bigfleet.proxmox.pvesim.ShellLexer.Kind;
import dev.bigfleet.proxmox.pvesim.ShellLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The structure of a script the built-in guest runs: lists of and-or lists of pipelines of
 * commands, a command being a simple one or an {@code if ... then ... [elif ... then ...] [else
 * ...] fi}. Parsed from {@link ShellLexer}'s tokens; a malformed script is a {@link SyntaxError}.
 */
final class ShellSyntax {
    private ShellSyntax() {}

    record Script(List<AndOr> items) {}

    /** {@code ops.get(i)} ({@code &&} or {@code ||}) stands between pipeline i and i + 1. */
    record AndOr(List<Pipeline> pipelines, List<String> ops) {}

    record Pipeline(List<Command> commands, boolean negated) {}

    sealed interface Command permits Simple, If {}

    record Redirect(String op, Token target) {}

    record Simple(List<Token> words, List<Redirect> redirects) implements Command {}

    /** {@code conditions.get(i)} guards {@code bodies.get(i)}; {@code otherwise} may be null. */
    record If(List<Script> conditions, List<Script> bodies, Script otherwise) implements Command {}

    static final class SyntaxError extends Exception {
        private static final long serialVersionUID = 1L;

        SyntaxError(String message) {
            super(message);
        }
    }

    static Script parse(String text) throws SyntaxError {
        Parser p = new Parser(ShellLexer.lex(text));
        Script script = p.list(Set.of());
        if (p.at < p.tokens.size()) {
            throw new SyntaxError("\"" + p.tokens.get(p.at).text() + "\" unexpected");
        }
        return script;
    }

    private static final class Parser {
        private static final Set<String> KEYWORDS = Set.of("if", "then", "elif", "else", "fi");
        final List<Token> tokens;
        int at;

        Parser(List<Token> tokens) {
            this.tokens = tokens;
        }

        private Token peek() {
            return at < tokens.size() ? tokens.get(at) : null;
        }

        private boolean keyword(String word) {
            Token t = peek();
            return t != null && t.kind() == Kind.WORD && !t.quoted() && t.text().equals(word);
        }

        private boolean op(String text) {
            Token t = peek();
            return t != null && t.kind() == Kind.OP && t.text().equals(text);
        }

        private void skipSeparators() {
            while (op(";")) {
                at++;
            }
        }

        /** Commands up to one of the {@code stop} keywords (not consumed) or the end. */
        Script list(Set<String> stop) throws SyntaxError {
            List<AndOr> items = new ArrayList<>();
            skipSeparators();
            while (peek() != null && stop.stream().noneMatch(this::keyword)) {
                items.add(andOr());
                skipSeparators();
            }
            return new Script(items);
        }

        private AndOr andOr() throws SyntaxError {
            List<Pipeline> pipelines = new ArrayList<>(List.of(pipeline()));
            List<String> ops = new ArrayList<>();
            while (op("&&") || op("||")) {
                ops.add(tokens.get(at++).text());
                skipSeparators();
                pipelines.add(pipeline());
            }
            return new AndOr(pipelines, ops);
        }

        private Pipeline pipeline() throws SyntaxError {
            boolean negated = keyword("!");
            if (negated) {
                at++;
            }
            List<Command> commands = new ArrayList<>(List.of(command()));
            while (op("|")) {
                at++;
                commands.add(command());
            }
            return new Pipeline(commands, negated);
        }

        private Command command() throws SyntaxError {
            if (keyword("if")) {
                return ifCommand();
            }
            Token first = peek();
            if (first != null && first.kind() == Kind.WORD && !first.quoted() && KEYWORDS.contains(first.text())) {
                throw new SyntaxError("\"" + first.text() + "\" unexpected");
            }
            List<Token> words = new ArrayList<>();
            List<Redirect> redirects = new ArrayList<>();
            while (peek() != null && peek().kind() != Kind.OP) {
                Token t = tokens.get(at++);
                if (t.kind() == Kind.WORD) {
                    words.add(t);
                } else if (t.text().contains(">&")) {
                    redirects.add(new Redirect(t.text(), null));
                } else if (peek() == null || peek().kind() != Kind.WORD) {
                    throw new SyntaxError("redirection unexpected");
                } else {
                    redirects.add(new Redirect(t.text(), tokens.get(at++)));
                }
            }
            if (words.isEmpty() && redirects.isEmpty()) {
                throw new SyntaxError(
                        peek() == null ? "end of file unexpected" : "\"" + peek().text() + "\" unexpected");
            }
            return new Simple(words, redirects);
        }

        private If ifCommand() throws SyntaxError {
            List<Script> conditions = new ArrayList<>();
            List<Script> bodies = new ArrayList<>();
            Script otherwise = null;
            String next = "if";
            while (next.equals("if") || next.equals("elif")) {
                at++;
                conditions.add(list(Set.of("then")));
                expect("then");
                bodies.add(list(Set.of("elif", "else", "fi")));
                next = keyword("elif") ? "elif" : keyword("else") ? "else" : "fi";
            }
            if (next.equals("else")) {
                at++;
                otherwise = list(Set.of("fi"));
            }
            expect("fi");
            return new If(conditions, bodies, otherwise);
        }

        private void expect(String word) throws SyntaxError {
            if (!keyword(word)) {
                throw new SyntaxError((peek() == null ? "end of file" : "\"" + peek().text() + "\"")
                        + " unexpected (expecting \"" + word + "\")");
            }
            at++;
        }
    }
}
