import { Eye, EyeOff } from 'lucide-react';
import { type ComponentProps, useState } from 'react';
import { inputClass } from './ui.tsx';

/** A password field with a show/hide toggle; the toggle names what it does for screen readers. */
export function PasswordInput(props: Omit<ComponentProps<'input'>, 'type' | 'className'>) {
  const [shown, setShown] = useState(false);
  return (
    <div className="relative">
      <input {...props} type={shown ? 'text' : 'password'} className={`${inputClass} pr-10`} />
      <button
        type="button"
        onClick={() => setShown((s) => !s)}
        aria-label={shown ? 'Hide password' : 'Show password'}
        aria-controls={props.id}
        className="absolute inset-y-0 right-0 flex items-center rounded-r-lg px-3 text-slate-400 transition hover:text-white"
      >
        {shown ? (
          <EyeOff className="h-4 w-4" aria-hidden="true" />
        ) : (
          <Eye className="h-4 w-4" aria-hidden="true" />
        )}
      </button>
    </div>
  );
}
