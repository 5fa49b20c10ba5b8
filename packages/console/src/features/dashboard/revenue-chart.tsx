import { CategoryScale, Chart, Filler, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';
import { Line } from 'react-chartjs-2';
import { day, money } from '../../lib/format';

Chart.register(CategoryScale, LinearScale, PointElement, LineElement, Filler, Tooltip);

export interface RevenuePoint {
  date: string;
  orders: number;
  net: string;
}

/** Net revenue per day. The figures are also in the table beside it, so the chart is decoration for screen readers. */
export default function RevenueChart({ series, currency }: { series: RevenuePoint[]; currency: string }) {
  return (
    <div style={{ position: 'relative', height: 260 }}>
      <Line
        role="img"
        aria-label={`Net revenue per day, ${series.length} days`}
        data={{
          labels: series.map((point) => day(point.date)),
          datasets: [
            {
              label: 'Net revenue',
              data: series.map((point) => Number(point.net)),
              borderColor: '#3b5bdb',
              backgroundColor: 'rgba(59, 91, 219, 0.12)',
              fill: true,
              // Monotone: the curve never dips below zero or overshoots a day's figure.
              cubicInterpolationMode: 'monotone',
              pointRadius: series.length > 31 ? 0 : 3,
            },
          ],
        }}
        options={{
          maintainAspectRatio: false,
          animation: false,
          interaction: { mode: 'index', intersect: false },
          scales: {
            y: { beginAtZero: true, ticks: { callback: (value) => money(String(value), currency) } },
            x: { ticks: { maxTicksLimit: 8 } },
          },
          plugins: {
            tooltip: {
              callbacks: {
                label: (item) => {
                  const point = series[item.dataIndex];
                  return point ? `${money(point.net, currency)} · ${point.orders} order${point.orders === 1 ? '' : 's'}` : '';
                },
              },
            },
          },
        }}
      />
    </div>
  );
}
