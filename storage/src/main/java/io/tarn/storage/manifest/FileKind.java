package io.tarn.storage.manifest;

/** Whether a manifest entry adds or deletes a file; stored as a TINYINT (0, 1). */
public enum FileKind
{
    ADD(0),
    DELETE(1);

    private final int byteValue;

    FileKind(int byteValue)
    {
        this.byteValue = byteValue;
    }

    public int byteValue()
    {
        return byteValue;
    }

    /**
     * @throws IllegalArgumentException for any value other than 0 and 1
     */
    public static FileKind fromByteValue(int value)
    {
        return switch (value) {
            case 0 -> ADD;
            case 1 -> DELETE;
            default -> throw new IllegalArgumentException("Unknown file kind: " + value);
        };
    }
}
