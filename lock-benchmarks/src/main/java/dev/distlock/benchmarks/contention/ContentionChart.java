package dev.distlock.benchmarks.contention;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import javax.imageio.ImageIO;

/**
 * Draws the contention results as a PNG with plain Java2D: grants per second (left) and Redis commands per grant
 * (right) against the number of client instances, one line per lock and critical section (solid 0 ms, dashed 1 ms).
 */
final class ContentionChart {

    private static final int PANEL_WIDTH = 560;

    private static final int HEIGHT = 460;

    private static final int LEFT = 70;

    private static final int RIGHT = 20;

    private static final int TOP = 50;

    private static final int BOTTOM = 110;

    private static final List<Color> COLORS = List.of(new Color(0x55, 0x55, 0x55), new Color(0x1f, 0x77, 0xb4),
            new Color(0xff, 0x7f, 0x0e), new Color(0x2c, 0xa0, 0x2c));

    private final List<ContentionResult> results;

    private final List<String> locks;

    private final List<Integer> clientCounts;

    private final List<Integer> sections;

    ContentionChart(List<ContentionResult> results) {
        this.results = results;
        this.locks = results.stream().map(ContentionResult::lock).distinct().toList();
        this.clientCounts = results.stream().map(ContentionResult::clients).distinct().sorted().toList();
        this.sections = results.stream().map(ContentionResult::sectionMillis).distinct().sorted().toList();
    }

    void write(Path file) throws IOException {
        BufferedImage image = new BufferedImage(2 * PANEL_WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            panel(g, 0, "Grants per second (one key)", ContentionResult::grantsPerSecond);
            panel(g, PANEL_WIDTH, "Redis commands per grant", ContentionResult::commandsPerGrant);
            legend(g);
        }
        finally {
            g.dispose();
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(image, "png", file.toFile());
    }

    private void panel(Graphics2D g, int x0, String title, ToDoubleFunction<ContentionResult> metric) {
        int width = PANEL_WIDTH - LEFT - RIGHT;
        int height = HEIGHT - TOP - BOTTOM;
        double max = niceCeiling(this.results.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).max()
            .orElse(1));
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.setColor(Color.BLACK);
        g.drawString(title, x0 + LEFT, TOP - 20);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (int tick = 0; tick <= 5; tick++) {
            double value = max * tick / 5;
            int y = TOP + height - (int) Math.round(height * value / max);
            g.setColor(new Color(0xe5, 0xe5, 0xe5));
            g.drawLine(x0 + LEFT, y, x0 + LEFT + width, y);
            g.setColor(Color.DARK_GRAY);
            String label = String.format(Locale.ROOT, "%,.0f", value);
            g.drawString(label, x0 + LEFT - 8 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        for (int i = 0; i < this.clientCounts.size(); i++) {
            String label = this.clientCounts.get(i).toString();
            g.drawString(label, xAt(x0, i) - g.getFontMetrics().stringWidth(label) / 2, TOP + height + 18);
        }
        String axis = "client instances on one key";
        g.drawString(axis, x0 + LEFT + (width - g.getFontMetrics().stringWidth(axis)) / 2, TOP + height + 36);
        g.setColor(Color.BLACK);
        g.drawRect(x0 + LEFT, TOP, width, height);
        for (int l = 0; l < this.locks.size(); l++) {
            for (int section : this.sections) {
                series(g, x0, height, max, metric, this.locks.get(l), section, COLORS.get(l % COLORS.size()));
            }
        }
    }

    private void series(Graphics2D g, int x0, int height, double max, ToDoubleFunction<ContentionResult> metric,
            String lock, int section, Color color) {
        Path2D.Double line = new Path2D.Double();
        boolean started = false;
        g.setColor(color);
        for (int i = 0; i < this.clientCounts.size(); i++) {
            int clients = this.clientCounts.get(i);
            double value = this.results.stream()
                .filter(r -> r.lock().equals(lock) && r.sectionMillis() == section && r.clients() == clients)
                .mapToDouble(metric).findFirst().orElse(Double.NaN);
            if (Double.isNaN(value)) {
                continue;
            }
            double x = xAt(x0, i);
            double y = TOP + height - height * value / max;
            if (started) {
                line.lineTo(x, y);
            }
            else {
                line.moveTo(x, y);
                started = true;
            }
            g.fill(new Ellipse2D.Double(x - 4, y - 4, 8, 8));
        }
        Stroke previous = g.getStroke();
        g.setStroke(stroke(section));
        g.draw(line);
        g.setStroke(previous);
    }

    private void legend(Graphics2D g) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        int x = LEFT;
        int y = HEIGHT - 35;
        for (int l = 0; l < this.locks.size(); l++) {
            for (int section : this.sections) {
                g.setColor(COLORS.get(l % COLORS.size()));
                Stroke previous = g.getStroke();
                g.setStroke(stroke(section));
                g.drawLine(x, y - 4, x + 30, y - 4);
                g.setStroke(previous);
                g.setColor(Color.BLACK);
                String label = this.locks.get(l) + ", " + section + " ms section";
                g.drawString(label, x + 36, y);
                x += 36 + g.getFontMetrics().stringWidth(label) + 24;
                if (x > 2 * PANEL_WIDTH - 300) {
                    x = LEFT;
                    y += 20;
                }
            }
        }
    }

    private static Stroke stroke(int section) {
        return section == 0 ? new BasicStroke(2.5f)
                : new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] { 8f, 6f }, 0f);
    }

    private int xAt(int x0, int index) {
        int width = PANEL_WIDTH - LEFT - RIGHT;
        return x0 + LEFT + (int) Math.round(width * (index + 0.5) / this.clientCounts.size());
    }

    private static double niceCeiling(double value) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(value, 1e-9))));
        for (double step : new double[] { 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 }) {
            if (step * magnitude >= value * 1.05) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
