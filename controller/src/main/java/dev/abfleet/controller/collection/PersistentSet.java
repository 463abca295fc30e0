package dev.abfleet.controller.collection;

import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Set;
import scala.collection.immutable.HashSet;
import scala.collection.immutable.HashSet$;

/**
 * A read-only {@link Set} whose {@link #with} returns a new set in O(1) (effectively: Scala's
 * hash array mapped trie) and leaves this one as it was; see {@link PersistentMap}.
 */
public final class PersistentSet<E> extends AbstractSet<E> {
  private static final PersistentSet<?> EMPTY = new PersistentSet<>(HashSet$.MODULE$.empty());

  private final HashSet<E> set;

  private PersistentSet(HashSet<E> set) {
    this.set = set;
  }

  @SuppressWarnings("unchecked")
  public static <E> PersistentSet<E> empty() {
    return (PersistentSet<E>) EMPTY;
  }

  /** {@code source} itself when it is persistent already, else a copy (O(n), once). */
  public static <E> PersistentSet<E> of(Set<E> source) {
    if (source instanceof PersistentSet<E> persistent) {
      return persistent;
    }
    HashSet<E> set = HashSet$.MODULE$.empty();
    for (E e : source) {
      set = set.incl(e);
    }
    return new PersistentSet<>(set);
  }

  /** This set with {@code element} added; null is not allowed. */
  public PersistentSet<E> with(E element) {
    if (element == null) {
      throw new NullPointerException("persistent sets hold no null");
    }
    return new PersistentSet<>(set.incl(element));
  }

  public PersistentSet<E> without(E element) {
    return set.contains(element) ? new PersistentSet<>(set.excl(element)) : this;
  }

  @Override
  @SuppressWarnings("unchecked")
  public boolean contains(Object element) {
    return set.contains((E) element);
  }

  @Override
  public int size() {
    return set.size();
  }

  @Override
  public Iterator<E> iterator() {
    scala.collection.Iterator<E> it = set.iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public E next() {
        return it.next();
      }
    };
  }
}
