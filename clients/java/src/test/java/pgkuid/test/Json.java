package pgkuid.test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for the vectors (the JDK has none): objects are
 * Maps, arrays Lists, integers Longs, other numbers Doubles.
 */
final class Json {
    private final String s;
    private int pos;

    private Json(String s) { this.s = s; }

    static Object parse(String text) {
        Json j = new Json(text);
        Object v = j.value();
        j.space();
        if (j.pos != text.length()) {
            throw j.error("trailing text");
        }
        return v;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("JSON: " + what + " at offset " + pos);
    }

    private void space() {
        while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
            pos++;
        }
    }

    private boolean eat(char c) {
        space();
        if (pos < s.length() && s.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!eat(c)) {
            throw error("expected '" + c + "'");
        }
    }

    private Object value() {
        space();
        if (pos >= s.length()) {
            throw error("unexpected end");
        }
        char c = s.charAt(pos);
        if (c == '{') {
            pos++;
            Map<String, Object> m = new LinkedHashMap<>();
            if (!eat('}')) {
                do {
                    space();
                    String key = string();
                    expect(':');
                    m.put(key, value());
                } while (eat(','));
                expect('}');
            }
            return m;
        } else if (c == '[') {
            pos++;
            List<Object> l = new ArrayList<>();
            if (!eat(']')) {
                do {
                    l.add(value());
                } while (eat(','));
                expect(']');
            }
            return l;
        } else if (c == '"') {
            return string();
        }
        for (String word : new String[] {"true", "false", "null"}) {
            if (s.startsWith(word, pos)) {
                pos += word.length();
                return word.equals("null") ? null : Boolean.valueOf(word);
            }
        }
        int start = pos;
        while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
            pos++;
        }
        String n = s.substring(start, pos);
        if (n.isEmpty()) {
            throw error("unexpected '" + c + "'");
        }
        return n.matches("-?\\d+") ? (Object) Long.valueOf(n) : (Object) Double.valueOf(n);
    }

    private String string() {
        if (pos >= s.length() || s.charAt(pos) != '"') {
            throw error("expected a string");
        }
        pos++;
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= s.length()) {
                throw error("unterminated string");
            }
            char c = s.charAt(pos++);
            if (c == '"') {
                return b.toString();
            } else if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = s.charAt(pos++);
            switch (e) {
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'n': b.append('\n'); break;
                case 'r': b.append('\r'); break;
                case 't': b.append('\t'); break;
                case 'u': b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16)); pos += 4; break;
                default: b.append(e); // " \ /
            }
        }
    }
}
