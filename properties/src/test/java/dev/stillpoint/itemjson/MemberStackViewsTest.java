package dev.stillpoint.itemjson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stillpoint.domain.item.AttributeValue;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The decode's member stack hands each value's constructor a view of the members pushed for it, not a
 * copy; the views are the Java collections they claim to be (a constructor may size its copy by
 * {@code size()}, index a list, or iterate to the end), over exactly the members from their start, and
 * a repeated name is found where it first repeats.
 */
class MemberStackViewsTest {

    private static MemberStack stackWithOuterMember() {
        MemberStack stack = new MemberStack();
        stack.push("outer", AttributeValue.s("not in the views"), 0);
        return stack;
    }

    @Test
    void aListViewHoldsExactlyTheMembersFromItsStart() {
        MemberStack stack = stackWithOuterMember();
        int from = stack.top();
        stack.push(null, AttributeValue.s("a"), 10);
        stack.push(null, AttributeValue.n("1"), 20);
        List<AttributeValue> list = stack.list(from);
        assertThat(list.size()).isEqualTo(2);
        assertThat(list.get(0)).isEqualTo(AttributeValue.s("a"));
        assertThat(list.get(1)).isEqualTo(AttributeValue.n("1"));
        assertThatThrownBy(() -> list.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> list.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(list.toArray()).containsExactly(AttributeValue.s("a"), AttributeValue.n("1"));
        assertThat(new ArrayList<>(list)).containsExactly(AttributeValue.s("a"), AttributeValue.n("1"));
    }

    @Test
    void aSetViewHoldsExactlyTheNamesFromItsStart() {
        MemberStack stack = stackWithOuterMember();
        int from = stack.top();
        stack.push("x", null, 1);
        stack.push("y", null, 2);
        Set<String> set = stack.set(from);
        assertThat(set.size()).isEqualTo(2);
        Iterator<String> names = set.iterator();
        assertThat(names.next()).isEqualTo("x");
        assertThat(names.next()).isEqualTo("y");
        assertThat(names.hasNext()).isFalse();
        assertThatThrownBy(names::next).isInstanceOf(NoSuchElementException.class);
        assertThat(Set.copyOf(set)).containsExactlyInAnyOrder("x", "y");
    }

    @Test
    void aMapViewHoldsExactlyTheMembersFromItsStart() {
        MemberStack stack = stackWithOuterMember();
        int from = stack.top();
        stack.push("k", AttributeValue.s("v"), 1);
        stack.push("n", AttributeValue.n("2"), 2);
        Map<String, AttributeValue> map = stack.map(from);
        assertThat(map.size()).isEqualTo(2);
        assertThat(map.entrySet().size()).isEqualTo(2);
        Iterator<Map.Entry<String, AttributeValue>> entries = map.entrySet().iterator();
        Map.Entry<String, AttributeValue> first = entries.next();
        assertThat(first.getKey()).isEqualTo("k");
        assertThat(first.getValue()).isEqualTo(AttributeValue.s("v"));
        assertThat(entries.next().getKey()).isEqualTo("n");
        assertThat(entries.hasNext()).isFalse();
        assertThatThrownBy(entries::next).isInstanceOf(NoSuchElementException.class);
        // The cursor is the entry it returns (valid until the next call), so a copy reads each entry at once.
        assertThat(new java.util.LinkedHashMap<>(map)).isEqualTo(Map.of("k", AttributeValue.s("v"), "n", AttributeValue.n("2")));
    }

    @Test
    void theFirstRepeatedNameIsFoundFromTheGivenStartOnly() {
        MemberStack stack = stackWithOuterMember();
        int from = stack.top();
        stack.push("outer", null, 1);
        stack.push("a", null, 2);
        assertThat(stack.firstRepeat(from)).as("a name of the enclosing value is no repeat").isEqualTo(-1);
        stack.push("a", null, 3);
        assertThat(stack.firstRepeat(from)).isEqualTo(from + 2);
        assertThat(stack.firstRepeat(0)).as("from the bottom, 'outer' repeats first").isEqualTo(1);
    }
}
