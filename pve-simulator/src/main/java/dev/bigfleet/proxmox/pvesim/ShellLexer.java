package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a small POSIX shell script into words, operators ({@code ; && || |}) and redirections
 * ({@code > >> < 2> 2>> 2>&1}). Quotes and backslashes are honoured; {@code $(...)} and
 * {@code $VAR} stay literal, since the simulated guest has no environment to expand them from.
 */
final class ShellLexer {
    enum Kind {
        WORD,
        OP,
        REDIR
    }

    record Token(Kind kind, String text) {}

    private final String s;
    private final List<Token> out = new ArrayList<>();
    private final StringBuilder word = new StringBuilder();
    private boolean inWord;
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
                int end = s.indexOf('\'', i + 1);
                end = end < 0 ? s.length() : end;
                word.append(s, i + 1, end);
                i = end + 1;
            } else if (c == '"') {
                doubleQuoted();
            } else if (c == '\\') {
                inWord = true;
                if (i + 1 < s.length() && s.charAt(i + 1) != '\n') {
                    word.append(s.charAt(i + 1));
                }
                i += 2;
            } else if (c == '$' && peek(1) == '(') {
                inWord = true;
                substitution();
            } else {
                inWord = true;
                word.append(c);
                i++;
            }
        }
        flush();
    }

    private void redirection(char c) {
        String fd = "";
        if (inWord && (word.toString().equals("1") || word.toString().equals("2"))) {
            fd = word.toString();
            word.setLength(0);
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
        i++;
        while (i < s.length() && s.charAt(i) != '"') {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() && "\"\\$`".indexOf(s.charAt(i + 1)) >= 0) {
                word.append(s.charAt(i + 1));
                i += 2;
            } else if (c == '$' && peek(1) == '(') {
                substitution();
            } else {
                word.append(c);
                i++;
            }
        }
        i++;
    }

    private void substitution() {
        int depth = 0;
        int start = i;
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                break;
            }
        }
        word.append(s, start, i);
    }

    private char peek(int ahead) {
        return i + ahead < s.length() ? s.charAt(i + ahead) : '\0';
    }

    private void op(String text) {
        out.add(new Token(Kind.OP, text));
    }

    private void flush() {
        if (inWord) {
            out.add(new Token(Kind.WORD, word.toString()));
            word.setLength(0);
            inWord = false;
        }
    }
}
