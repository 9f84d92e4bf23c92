import type { TrendPoint } from '@parley/contracts';
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatDay, TREND_SERIES } from './api.ts';

/**
 * The trend chart of Advanced analytics (Recharts, loaded only when that tab opens): opens,
 * clicks, bounces and unsubscribes per bucket as lines, the mails sent as faint bars on their
 * own axis. Decorative for screen readers: the same figures are a table next to it.
 */

export default function TrendChart({ trend }: { trend: TrendPoint[] }) {
  return (
    <div className="h-72 w-full" data-testid="trend-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          data={trend}
          margin={{ top: 8, right: 4, bottom: 0, left: -16 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke="#1e293b" vertical={false} />
          <XAxis
            dataKey="date"
            tickFormatter={formatDay}
            tick={{ fill: '#94a3b8', fontSize: 11 }}
            stroke="#334155"
            minTickGap={16}
          />
          <YAxis
            yAxisId="events"
            allowDecimals={false}
            tick={{ fill: '#94a3b8', fontSize: 11 }}
            stroke="#334155"
          />
          <YAxis yAxisId="sent" orientation="right" allowDecimals={false} hide />
          <Tooltip
            labelFormatter={(d) => formatDay(String(d))}
            contentStyle={{
              background: '#0b1220',
              border: '1px solid #334155',
              borderRadius: 8,
              fontSize: 12,
            }}
            labelStyle={{ color: '#e2e8f0' }}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: '#cbd5e1' }} />
          <Bar yAxisId="sent" dataKey="sent" name="Sent" fill="#475569" isAnimationActive={false} />
          {TREND_SERIES.map((s) => (
            <Line
              key={s.key}
              yAxisId="events"
              type="monotone"
              dataKey={s.key}
              name={s.label}
              stroke={s.color}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
