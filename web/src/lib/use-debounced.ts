import { useEffect, useState } from 'react';

/**
 * The value once it has stopped changing for `ms` (typing settles before a search or a count is
 * asked for). Compare by value: pass a string or number, not an object built on every render.
 */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}
