import { bookableDates } from '@parley/contracts/schedule';
import { type ReactNode, useEffect, useRef } from 'react';
import { DateStep } from './date-step.tsx';
import { DetailsStep } from './details-step.tsx';
import { Stepper } from './stepper.tsx';
import { TimeStep } from './time-step.tsx';
import type { BookingFlow } from './use-booking-flow.ts';

/**
 * The booking flow on screen: a header (the host's title, then the step progress) and the
 * current step. The booking modal renders it inside its dialog and the book-demo page inline;
 * the state comes from `useBookingFlow` so both behave the same.
 */
export function BookingFlowView({
  flow,
  header,
  headerClassName,
  bodyClassName,
}: {
  flow: BookingFlow;
  /** Title and description of the host, shown above the step progress. */
  header: ReactNode;
  headerClassName?: string;
  bodyClassName?: string;
}) {
  const { step, date, slot } = flow;
  const bodyRef = useRef<HTMLDivElement>(null);
  const shownStep = useRef(step);

  // Keyboard and screen-reader users land on the new step's content after a step change
  // (not when the flow first appears: the host decides where focus starts).
  useEffect(() => {
    if (shownStep.current !== step) bodyRef.current?.focus();
    shownStep.current = step;
  }, [step]);

  return (
    <>
      <div className={headerClassName}>
        {header}
        <div className="mt-4">
          <Stepper
            step={step}
            canVisit={(s) => s === 'date' || (s === 'time' && date !== null)}
            onVisit={flow.goTo}
          />
        </div>
      </div>

      <div ref={bodyRef} tabIndex={-1} className={bodyClassName}>
        {step === 'time' && date ? (
          <TimeStep
            date={date}
            selected={slot}
            onSelect={flow.pickSlot}
            onChangeDate={() => flow.goTo('date')}
          />
        ) : step === 'details' && date && slot ? (
          <DetailsStep
            date={date}
            slot={slot}
            values={flow.details}
            onChange={flow.setDetails}
            onChangeDate={() => flow.goTo('date')}
            onChangeTime={() => flow.goTo('time')}
            onSubmit={flow.submit}
            pending={flow.pending}
          />
        ) : (
          // Computed whenever the date step shows, so the 8 PM Eastern cut-over is honoured
          // on a page left open for hours (14 dates: cheap).
          <DateStep dates={bookableDates(new Date())} selected={date} onSelect={flow.pickDate} />
        )}
      </div>
    </>
  );
}
