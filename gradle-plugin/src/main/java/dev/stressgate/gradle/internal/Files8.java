package dev.stressgate.gradle.internal;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.file.Files;

/** UTF-8 file helpers shared by the manifest, the plan and the results log. */
final class Files8 {

    static final Charset UTF_8 = Charset.forName("UTF-8");

    private Files8() {
    }

    static String read(File file) throws IOException {
        return new String(Files.readAllBytes(file.toPath()), UTF_8);
    }

    static void write(File file, String text, boolean append) throws IOException {
        File parent = file.getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs() && !parent.isDirectory()) {
            throw new IOException("cannot create directory " + parent);
        }
        // One write call per line keeps appended lines whole.
        OutputStream out = new FileOutputStream(file, append);
        try {
            out.write(text.getBytes(UTF_8));
        } finally {
            out.close();
        }
    }
}
