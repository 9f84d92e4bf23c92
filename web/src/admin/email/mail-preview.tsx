import clsx from 'clsx';
import { Monitor, Smartphone, Tablet } from 'lucide-react';
import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { type TabDef, Tabs } from '../../components/tabs.tsx';
import { secondaryButton } from '../components/ui.tsx';

/**
 * The mail preview shared by the campaign and newsletter previews (email marketing §2, §9):
 * device widths (Desktop, Tablet 768px, Mobile 375px; mobile first below a 768 px window), and
 * the HTML and Text tabs, the HTML in a sandboxed frame.
 */

export type PreviewDevice = 'desktop' | 'tablet' | 'mobile';
type Part = 'html' | 'text';

const DEVICES: Record<PreviewDevice, { label: string; icon: typeof Monitor; width: number | null }> = {
  desktop: { label: 'Desktop', icon: Monitor, width: null },
  tablet: { label: 'Tablet (768px)', icon: Tablet, width: 768 },
  mobile: { label: 'Mobile (375px)', icon: Smartphone, width: 375 },
};

export const initialPreviewDevice = (): PreviewDevice =>
  typeof window !== 'undefined' && window.innerWidth < 768 ? 'mobile' : 'desktop';

const PARTS: TabDef<Part>[] = [
  { key: 'html', label: 'HTML' },
  { key: 'text', label: 'Text' },
];

const widthOf = (device: PreviewDevice) => {
  const w = DEVICES[device].width;
  return w ? `${w}px` : '100%';
};

export function DevicePicker({
  devices,
  device,
  onSelect,
  className,
}: {
  devices: PreviewDevice[];
  device: PreviewDevice;
  onSelect: (device: PreviewDevice) => void;
  className?: string;
}) {
  return (
    <fieldset className={clsx('flex flex-wrap items-center gap-2', className)}>
      <legend className="sr-only">Device</legend>
      {devices.map((key) => {
        const { label, icon: Icon } = DEVICES[key];
        return (
          <button
            key={key}
            type="button"
            aria-pressed={device === key}
            className={clsx(
              secondaryButton,
              'px-2.5 py-1.5 text-xs aria-pressed:border-brand aria-pressed:text-white',
            )}
            onClick={() => onSelect(key)}
          >
            <Icon className="h-3.5 w-3.5" aria-hidden="true" />
            {label}
          </button>
        );
      })}
    </fieldset>
  );
}

/**
 * The width a box offers its content, followed as the window changes (null before the first
 * measure).
 */
function useAvailableWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The HTML (sanitised already, in a sandboxed frame) and Text tabs at the device's width. A
 * device wider than the dialog leaves room for (a 375 px phone inside a 375 px window) is shown
 * whole, scaled down: the mail is still laid out at the device's width, never clipped.
 */
export function MailPreviewTabs({
  device,
  title,
  html,
  text,
  emptyHtml,
  frameTestId,
  textTestId,
  frameHeight,
}: {
  device: PreviewDevice;
  /** The frame's accessible name. */
  title: string;
  html: string;
  text: string;
  /** Shown instead of the frame when there is no HTML. */
  emptyHtml?: string;
  frameTestId: string;
  textTestId: string;
  /** The frame's height in CSS pixels. */
  frameHeight: number;
}) {
  const [part, setPart] = useState<Part>('html');
  const box = useRef<HTMLDivElement>(null);
  const available = useAvailableWidth(box);
  const px = DEVICES[device].width;
  const scale = px && available && available < px ? available / px : 1;
  return (
    <Tabs<Part> label="Preview format" tabs={PARTS} selected={part} onSelect={setPart}>
      <div className="rounded-lg border border-navy-700 bg-navy-950/40 p-2">
        <div ref={box} className="overflow-hidden">
          {part === 'text' ? (
            <pre
              className="mx-auto max-w-full p-3 font-mono text-xs break-words whitespace-pre-wrap text-slate-200"
              style={{ width: widthOf(device) }}
              data-testid={textTestId}
            >
              {text}
            </pre>
          ) : emptyHtml !== undefined && !html.trim() ? (
            <p className="p-4 text-sm text-slate-400">{emptyHtml}</p>
          ) : (
            <div
              className="mx-auto"
              style={px ? { width: px * scale, height: frameHeight * scale } : { height: frameHeight }}
            >
              {/* sandbox="": no script, no same-origin access, no navigation out of the frame. */}
              <iframe
                title={title}
                sandbox=""
                srcDoc={html}
                data-testid={frameTestId}
                data-device={device}
                data-scale={scale.toFixed(3)}
                className="block max-w-none origin-top-left rounded bg-white"
                style={{
                  width: widthOf(device),
                  height: frameHeight,
                  ...(scale < 1 ? { transform: `scale(${scale})` } : {}),
                }}
              />
            </div>
          )}
        </div>
      </div>
    </Tabs>
  );
}
