package dev.abfleet.controller.collection;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import scala.Tuple2;
import scala.collection.immutable.HashMap;
import scala.collection.immutable.HashMap$;

/**
 * A read-only {@link Map} whose {@link #with} and {@link #without} return a new map in O(1)
 * (effectively: Scala's hash array mapped trie) and leave this one as it was. It lets an
 * immutable state record grow by one entry per event without copying what it holds, so that
 * replaying N events costs O(N). Serialized by Jackson as any map.
 */
public final class PersistentMap<K, V> extends AbstractMap<K, V> {
  private static final PersistentMap<?, ?> EMPTY = new PersistentMap<>(HashMap$.MODULE$.empty());

  private final HashMap<K, V> map;

  private PersistentMap(HashMap<K, V> map) {
    this.map = map;
  }

  @SuppressWarnings("unchecked")
  public static <K, V> PersistentMap<K, V> empty() {
    return (PersistentMap<K, V>) EMPTY;
  }

  /** {@code source} itself when it is persistent already, else a copy (O(n), once). */
  public static <K, V> PersistentMap<K, V> of(Map<K, V> source) {
    if (source instanceof PersistentMap<K, V> persistent) {
      return persistent;
    }
    HashMap<K, V> map = HashMap$.MODULE$.empty();
    for (Map.Entry<K, V> e : source.entrySet()) {
      map = map.updated(e.getKey(), e.getValue());
    }
    return new PersistentMap<>(map);
  }

  /** This map with {@code key} mapped to {@code value}; nulls are not allowed. */
  public PersistentMap<K, V> with(K key, V value) {
    if (key == null || value == null) {
      throw new NullPointerException("persistent maps hold no null key or value");
    }
    return new PersistentMap<>(map.updated(key, value));
  }

  public PersistentMap<K, V> without(K key) {
    return map.contains(key) ? new PersistentMap<>(map.removed(key)) : this;
  }

  @Override
  @SuppressWarnings("unchecked")
  public V get(Object key) {
    var found = map.get((K) key);
    return found.isEmpty() ? null : found.get();
  }

  @Override
  @SuppressWarnings("unchecked")
  public boolean containsKey(Object key) {
    return map.contains((K) key);
  }

  @Override
  public int size() {
    return map.size();
  }

  @Override
  public Set<Map.Entry<K, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<K, V>> iterator() {
        scala.collection.Iterator<Tuple2<K, V>> it = map.iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Map.Entry<K, V> next() {
            Tuple2<K, V> t = it.next();
            return new AbstractMap.SimpleImmutableEntry<>(t._1(), t._2());
          }
        };
      }

      @Override
      public int size() {
        return map.size();
      }
    };
  }
}
