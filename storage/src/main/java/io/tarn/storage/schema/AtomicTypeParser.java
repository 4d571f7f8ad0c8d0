package io.tarn.storage.schema;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.MultisetType;
import io.tarn.types.TypeRoot;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses the SQL spelling of an atomic type as Paimon writes it in schema JSON
 * ({@code DECIMAL(10, 2) NOT NULL}), plus the aliases Paimon's parser accepts: {@code INTEGER},
 * {@code NUMERIC}, {@code DEC}, {@code DOUBLE PRECISION}, {@code TIMESTAMP_LTZ},
 * {@code ... WITHOUT TIME ZONE}, an explicit {@code NULL}, omitted lengths and precisions, and the
 * suffix forms {@code <type> ARRAY} and {@code <type> MULTISET}. Keywords are case-insensitive.
 * <p>
 * Defaults for omitted parameters follow Paimon: CHAR, VARCHAR, BINARY, VARBINARY length 1;
 * DECIMAL (10, 0); TIME 0; TIMESTAMP and TIMESTAMP_LTZ 6.
 */
final class AtomicTypeParser
{
    private static final Set<String> UNSUPPORTED = Set.of("VECTOR", "BLOB", "GEOMETRY", "GEOGRAPHY", "RAW", "INTERVAL", "LEGACY");

    private final String text;
    private final List<String> tokens;
    private int position;

    private AtomicTypeParser(String text)
    {
        this.text = text;
        this.tokens = tokenize(text);
    }

    /**
     * @throws UnsupportedTypeException for a type Paimon knows that Tarn's type model lacks
     * @throws IllegalArgumentException for text that is not a type
     */
    static DataType parse(String text)
    {
        AtomicTypeParser parser = new AtomicTypeParser(text);
        DataType type = parser.parseWithSuffixes();
        if (parser.position < parser.tokens.size()) {
            throw parser.error("unexpected '" + parser.tokens.get(parser.position) + "'");
        }
        return type;
    }

    private DataType parseWithSuffixes()
    {
        DataType type = parseBase();
        type = type.withNullable(parseNullability());
        while (true) {
            if (nextIs("ARRAY")) {
                position++;
                type = new ArrayType(type, parseNullability());
            }
            else if (nextIs("MULTISET")) {
                position++;
                type = new MultisetType(type, parseNullability());
            }
            else {
                return type;
            }
        }
    }

    private boolean parseNullability()
    {
        if (nextIs("NOT") && position + 1 < tokens.size() && keyword(tokens.get(position + 1)).equals("NULL")) {
            position += 2;
            return false;
        }
        if (nextIs("NULL")) {
            position++;
        }
        return true;
    }

    private DataType parseBase()
    {
        if (position >= tokens.size()) {
            throw error("empty type");
        }
        String keyword = keyword(tokens.get(position++));
        return switch (keyword) {
            case "BOOLEAN" -> simple(TypeRoot.BOOLEAN);
            case "TINYINT" -> simple(TypeRoot.TINYINT);
            case "SMALLINT" -> simple(TypeRoot.SMALLINT);
            case "INT", "INTEGER" -> simple(TypeRoot.INT);
            case "BIGINT" -> simple(TypeRoot.BIGINT);
            case "FLOAT" -> simple(TypeRoot.FLOAT);
            case "DOUBLE" -> {
                if (nextIs("PRECISION")) {
                    position++;
                }
                yield simple(TypeRoot.DOUBLE);
            }
            case "DATE" -> simple(TypeRoot.DATE);
            case "VARIANT" -> simple(TypeRoot.VARIANT);
            case "STRING" -> new AtomicType(TypeRoot.VARCHAR, AtomicType.MAX_LENGTH, 0, true);
            case "BYTES" -> new AtomicType(TypeRoot.VARBINARY, AtomicType.MAX_LENGTH, 0, true);
            case "CHAR" -> length(TypeRoot.CHAR);
            case "VARCHAR" -> length(TypeRoot.VARCHAR);
            case "BINARY" -> length(TypeRoot.BINARY);
            case "VARBINARY" -> length(TypeRoot.VARBINARY);
            case "DECIMAL", "NUMERIC", "DEC" -> decimal();
            case "TIME" -> {
                int precision = optionalPrecision(0);
                if (nextIs("WITHOUT")) {
                    expectKeywords("WITHOUT", "TIME", "ZONE");
                }
                yield new AtomicType(TypeRoot.TIME, precision, 0, true);
            }
            case "TIMESTAMP" -> {
                int precision = optionalPrecision(6);
                if (nextIs("WITHOUT")) {
                    expectKeywords("WITHOUT", "TIME", "ZONE");
                    yield new AtomicType(TypeRoot.TIMESTAMP, precision, 0, true);
                }
                if (nextIs("WITH")) {
                    expectKeywords("WITH", "LOCAL", "TIME", "ZONE");
                    yield new AtomicType(TypeRoot.TIMESTAMP_LTZ, precision, 0, true);
                }
                yield new AtomicType(TypeRoot.TIMESTAMP, precision, 0, true);
            }
            case "TIMESTAMP_LTZ" -> new AtomicType(TypeRoot.TIMESTAMP_LTZ, optionalPrecision(6), 0, true);
            default -> {
                if (UNSUPPORTED.contains(keyword)) {
                    throw new UnsupportedTypeException("Type %s is not supported: %s".formatted(keyword, text));
                }
                throw error("unknown type '" + tokens.get(position - 1) + "'");
            }
        };
    }

    private static AtomicType simple(TypeRoot root)
    {
        return new AtomicType(root, 0, 0, true);
    }

    private AtomicType length(TypeRoot root)
    {
        int length = optionalPrecision(1);
        if (length < 1) {
            throw error(root + " length must be at least 1");
        }
        return new AtomicType(root, length, 0, true);
    }

    private AtomicType decimal()
    {
        int precision = 10;
        int scale = 0;
        if (nextIs("(")) {
            position++;
            precision = integer();
            if (nextIs(",")) {
                position++;
                scale = integer();
            }
            expect(")");
        }
        return new AtomicType(TypeRoot.DECIMAL, precision, scale, true);
    }

    private int optionalPrecision(int defaultValue)
    {
        if (!nextIs("(")) {
            return defaultValue;
        }
        position++;
        int value = integer();
        expect(")");
        return value;
    }

    private int integer()
    {
        if (position >= tokens.size()) {
            throw error("unexpected end, expected a number");
        }
        String token = tokens.get(position++);
        try {
            return Integer.parseInt(token);
        }
        catch (NumberFormatException e) {
            throw error("expected a number but found '" + token + "'");
        }
    }

    private void expect(String token)
    {
        if (!nextIs(token)) {
            throw error("expected '" + token + "'" + (position < tokens.size() ? " but found '" + tokens.get(position) + "'" : " at the end"));
        }
        position++;
    }

    private void expectKeywords(String... keywords)
    {
        for (String keyword : keywords) {
            expect(keyword);
        }
    }

    private boolean nextIs(String token)
    {
        return position < tokens.size() && keyword(tokens.get(position)).equals(token);
    }

    private static String keyword(String token)
    {
        return token.toUpperCase(Locale.ROOT);
    }

    private IllegalArgumentException error(String message)
    {
        return new IllegalArgumentException("Cannot parse type '%s': %s".formatted(text, message));
    }

    private static List<String> tokenize(String text)
    {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            }
            else if (c == '(' || c == ')' || c == ',' || c == '<' || c == '>') {
                tokens.add(String.valueOf(c));
                i++;
            }
            else if (Character.isLetterOrDigit(c) || c == '_') {
                int start = i;
                while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                    i++;
                }
                tokens.add(text.substring(start, i));
            }
            else {
                throw new IllegalArgumentException("Cannot parse type '%s': unexpected character '%s'".formatted(text, c));
            }
        }
        return tokens;
    }

    /**
     * A type Paimon can store that Tarn's type model cannot represent.
     */
    static final class UnsupportedTypeException
            extends IllegalArgumentException
    {
        private static final long serialVersionUID = 1L;

        UnsupportedTypeException(String message)
        {
            super(message);
        }
    }
}
