// A driver for A. Siegel's MisereSolver (part of CGSuite, which is not kept
// here): it plays the octal or hexadecimal game given by its code, builds
// the misère quotient heap by heap with MisereSolver's own construction, and
// prints, for each heap n, the quotient of heaps up to n as
//
//     n order p-size pattern
//
// where the pattern gives, for each heap 0..n, the least heap with the same
// element and a `P` when that element is in the P-portion (so it does not
// depend on how either program numbers its elements).
//
//     java -cp CLASSES grundybench.QuotientDriver 0.07 30
//     java -cp CLASSES grundybench.QuotientDriver 0.07 30 --last   # the last line only
package grundybench;

import java.util.ArrayList;
import java.util.List;
import org.cgsuite.core.misere.solver.BipartiteMonoid;
import org.cgsuite.core.misere.solver.MisereSolver;
import org.cgsuite.core.misere.solver.Pretension;

public final class QuotientDriver extends MisereSolver {
    /** code[k]: the digit for taking k tokens (k = 0 splits without taking). */
    private final int[] code;

    private QuotientDriver(int[] code) {
        super((org.cgsuite.core.impartial.HeapRuleset) null);
        this.code = code;
    }

    /** Digits of a code such as 0.07, 4.7 or 0.137; hexadecimal digits allowed. */
    static int[] parse(String text) {
        int dot = text.indexOf('.');
        if (dot < 0) {
            throw new IllegalArgumentException("not a take-and-break code: " + text);
        }
        String before = text.substring(0, dot);
        String after = text.substring(dot + 1);
        int[] digits = new int[after.length() + 1];
        digits[0] = before.isEmpty() ? 0 : Integer.parseInt(before, 16);
        for (int k = 0; k < after.length(); k++) {
            digits[k + 1] = Character.digit(after.charAt(k), 16);
        }
        return digits;
    }

    /** Every way of writing r as `parts` positive parts, in ascending order. */
    private static void splits(int r, int parts, int least, int[] into, int at, List<int[]> out) {
        if (parts == 0) {
            if (r == 0) {
                out.add(into.clone());
            }
            return;
        }
        for (int x = least; x * parts <= r; x++) {
            into[at] = x;
            splits(r - x, parts - 1, x, into, at + 1, out);
        }
    }

    @Override
    public List<int[]> heapOptions(int heap) {
        List<int[]> options = new ArrayList<>();
        for (int k = 0; k < code.length && k <= heap; k++) {
            int digit = code[k];
            int rest = heap - k;
            for (int leave = 0; leave < 4; leave++) {
                if ((digit >> leave & 1) == 0) {
                    continue;
                }
                if (k == 0 && leave < 2) {
                    continue;
                }
                if (leave == 0) {
                    if (rest == 0) {
                        options.add(new int[0]);
                    }
                } else {
                    splits(rest, leave, 1, new int[leave], 0, options);
                }
            }
        }
        return options;
    }

    private static String line(int heap, Pretension p) {
        BipartiteMonoid q = p.getQuotient();
        List<Integer> map = p.getPrefn();
        StringBuilder pattern = new StringBuilder();
        for (int h = 0; h <= heap; h++) {
            int first = map.indexOf(map.get(h));
            if (h > 0) {
                pattern.append(',');
            }
            pattern.append(first);
            if (q.isP(map.get(h))) {
                pattern.append('P');
            }
        }
        return heap + " " + q.size() + " " + q.pPortionSize() + " " + pattern;
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: QuotientDriver CODE MAX_HEAP [--last]");
            System.exit(2);
        }
        QuotientDriver solver = new QuotientDriver(parse(args[0]));
        int max = Integer.parseInt(args[1]);
        boolean last = args.length > 2 && args[2].equals("--last");
        for (int n = 1; n <= max; n++) {
            solver.next();
            if (!last || n == max) {
                System.out.println(line(n, solver.currentPretension()));
                System.out.flush();
            }
        }
    }
}
