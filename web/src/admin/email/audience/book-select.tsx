import type { AddressBook } from '@parley/contracts';
import { selectClass } from '../../components/ui.tsx';

/**
 * The address-book filter of the contact lists: 'All address books' or one of them. A segment's
 * book condition uses it too, with its own label and empty choice.
 */
export function BookSelect({
  id,
  books,
  value,
  onChange,
  labelClassName,
  width,
  label = 'Address book',
  emptyLabel = 'All address books',
}: {
  id: string;
  books: readonly AddressBook[];
  value: number | null;
  onChange: (bookId: number | null) => void;
  labelClassName: string;
  /** A Tailwind width class for the select. */
  width: string;
  label?: string;
  /** The choice of no book. */
  emptyLabel?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      <select
        id={id}
        className={`${selectClass} ${width}`}
        value={value ?? ''}
        onChange={(e) => onChange(Number(e.target.value) || null)}
      >
        <option value="">{emptyLabel}</option>
        {books.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
      </select>
    </div>
  );
}
