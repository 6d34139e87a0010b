package dev.stillpoint.properties.kit;

import dev.stillpoint.ports.out.PausePoint;
import java.util.Optional;

/**
 * What a backend declares about itself, so the kit's assertions are exact rather than lenient.
 *
 * @param keyOrdered             whether a key-orderable table streams in {@code KeyOrder} order [S3]
 * @param numberDigits           significant digits of N the backend stores (38, or 34 for Decimal128 [M4])
 * @param updateTableWaitsAt     the pause point at which an UpdateTable waits for the open (then the
 *                               2 s timeout resumes it, not W2's commit) [K2]; empty when it never waits
 */
public record Expectations(boolean keyOrdered, int numberDigits, Optional<PausePoint> updateTableWaitsAt) {
}
