package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a small POSIX shell script into words, operators ({@code ; && || |}) and redirections
 * ({@code > >> < 2> 2>> 2>&1}). Quotes and backslashes are honoured; a word keeps its parameter
 * expansions ({@code $1}, {@code $name}, {@code ${name}}, {@code ${name:-word}}) and command
 * substitutions ({@code $(...)}) apart from its literal text, except inside single quotes, so the
 * shell expands them when it runs the command.
 */
final class ShellLexer {
    enum Kind {
        WORD,
        OP,
        REDIR
    }

    /** A piece of a word: literal text, a parameter, or a command substitution. */
    sealed interface Part permits Literal, Param, Substitution {}

    record Literal(String text) implements Part {}

    /** {@code $name} or {@code ${name}}; {@code fallback} is the word of {@code ${name:-word}}, else null. */
    record Param(String name, List<Part> fallback) implements Part {}

    record Substitution(String script) implements Part {}

    /** {@code text} is the word's literal reading (expansions as written); {@code quoted}: any quote in it. */
    record Token(Kind kind, String text, List<Part> parts, boolean quoted) {
        Token(Kind kind, String text) {
            this(kind, text, List.of(new Literal(text)), false);
        }
    }

    private final String s;
    private final List<Token> out = new ArrayList<>();
    private final StringBuilder raw = new StringBuilder();
    private final StringBuilder literal = new StringBuilder();
    private final List<Part> parts = new ArrayList<>();
    private boolean inWord;
    private boolean quoted;
    private int i;

    private ShellLexer(String s) {
        this.s = s;
    }

    static List<Token> lex(String script) {
        ShellLexer l = new ShellLexer(script);
        l.run();
        return l.out;
    }

    private void run() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\n' || c == ';') {
                flush();
                op(";");
                i++;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                flush();
                i++;
            } else if (c == '#' && !inWord) {
                while (i < s.length() && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '&') {
                flush();
                // A background job is treated as a sequential one: nothing runs in parallel here.
                op(peek(1) == '&' ? "&&" : ";");
                i += peek(1) == '&' ? 2 : 1;
            } else if (c == '|') {
                flush();
                op(peek(1) == '|' ? "||" : "|");
                i += peek(1) == '|' ? 2 : 1;
            } else if (c == '>' || c == '<') {
                redirection(c);
            } else if (c == '\'') {
                inWord = true;
                quoted = true;
                int end = s.indexOf('\'', i + 1);
                end = end < 0 ? s.length() : end;
                text(s.substring(i + 1, end), s.substring(i, Math.min(s.length(), end + 1)));
                i = end + 1;
            } else if (c == '"') {
                doubleQuoted();
            } else if (c == '\\') {
                inWord = true;
                if (i + 1 < s.length() && s.charAt(i + 1) != '\n') {
                    text(String.valueOf(s.charAt(i + 1)), s.substring(i, i + 2));
                }
                i += 2;
            } else if (c == '$' && dollar()) {
                inWord = true;
            } else {
                inWord = true;
                text(String.valueOf(c), String.valueOf(c));
                i++;
            }
        }
        flush();
    }

    private void redirection(char c) {
        String fd = "";
        if (inWord
                && parts.isEmpty()
                && (literal.toString().equals("1") || literal.toString().equals("2"))) {
            fd = literal.toString();
            literal.setLength(0);
            raw.setLength(0);
            inWord = false;
        }
        flush();
        if (c == '<') {
            out.add(new Token(Kind.REDIR, "<"));
            i++;
            return;
        }
        if (peek(1) == '&' && (peek(2) == '1' || peek(2) == '2')) {
            out.add(new Token(Kind.REDIR, (fd.isEmpty() ? "1" : fd) + ">&" + peek(2)));
            i += 3;
            return;
        }
        boolean append = peek(1) == '>';
        out.add(new Token(Kind.REDIR, (fd.equals("2") ? "2" : "") + (append ? ">>" : ">")));
        i += append ? 2 : 1;
    }

    private void doubleQuoted() {
        inWord = true;
        quoted = true;
        raw.append('"');
        i++;
        while (i < s.length() && s.charAt(i) != '"') {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() && "\"\\$`".indexOf(s.charAt(i + 1)) >= 0) {
                text(String.valueOf(s.charAt(i + 1)), s.substring(i, i + 2));
                i += 2;
            } else if (c != '$' || !dollar()) { // an expansion is read by dollar()
                text(String.valueOf(c), String.valueOf(c));
                i++;
            }
        }
        raw.append('"');
        i++;
    }

    /** At a {@code $}: reads an expansion and returns true, or returns false for a literal {@code $}. */
    private boolean dollar() {
        char next = peek(1);
        int start = i;
        if (next == '(') {
            int depth = 0;
            i++;
            int open = i;
            while (i < s.length()) {
                char c = s.charAt(i++);
                if (c == '(') {
                    depth++;
                } else if (c == ')' && --depth == 0) {
                    break;
                }
            }
            expansion(new Substitution(s.substring(open + 1, Math.max(open + 1, i - 1))), s.substring(start, i));
            return true;
        }
        if (next == '{') {
            int close = s.indexOf('}', i + 2);
            if (close < 0) {
                return false;
            }
            String inside = s.substring(i + 2, close);
            int dash = inside.indexOf(":-");
            Param p = dash < 0
                    ? new Param(inside, null)
                    : new Param(inside.substring(0, dash), wordParts(inside.substring(dash + 2)));
            i = close + 1;
            expansion(p, s.substring(start, i));
            return true;
        }
        if (Character.isDigit(next) || next == '#' || next == '?' || next == '@' || next == '*') {
            i += 2;
            expansion(new Param(String.valueOf(next), null), s.substring(start, i));
            return true;
        }
        if (Character.isLetter(next) || next == '_') {
            int end = i + 1;
            while (end < s.length() && (Character.isLetterOrDigit(s.charAt(end)) || s.charAt(end) == '_')) {
                end++;
            }
            expansion(new Param(s.substring(i + 1, end), null), s.substring(start, end));
            i = end;
            return true;
        }
        return false;
    }

    /** The parts of a {@code ${name:-word}} fallback, itself lexed as one word. */
    private static List<Part> wordParts(String word) {
        List<Token> tokens = lex(word);
        return tokens.isEmpty() ? List.of(new Literal("")) : tokens.get(0).parts();
    }

    private void text(String value, String as) {
        literal.append(value);
        raw.append(as);
    }

    private void expansion(Part part, String as) {
        if (literal.length() > 0) {
            parts.add(new Literal(literal.toString()));
            literal.setLength(0);
        }
        parts.add(part);
        raw.append(as);
    }

    private char peek(int ahead) {
        return i + ahead < s.length() ? s.charAt(i + ahead) : '\0';
    }

    private void op(String text) {
        out.add(new Token(Kind.OP, text));
    }

    private void flush() {
        if (inWord) {
            if (literal.length() > 0 || parts.isEmpty()) {
                parts.add(new Literal(literal.toString()));
            }
            String text = raw.toString();
            out.add(new Token(Kind.WORD, text, List.copyOf(parts), quoted));
            raw.setLength(0);
            literal.setLength(0);
            parts.clear();
            inWord = false;
            quoted = false;
        }
    }
}
