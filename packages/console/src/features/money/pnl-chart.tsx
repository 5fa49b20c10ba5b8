import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { Chart as ChartView } from 'react-chartjs-2';
import { money } from '../../lib/format';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface PnlMonth {
  month: string;
  revenue: string;
  operating_expenses: string;
  net_profit: string;
}

const monthLabel = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** Revenue and expenses as bars, net profit as a line, per month; the table beside it has every figure. */
export default function PnlChart({ months, currency }: { months: PnlMonth[]; currency: string }) {
  return (
    <div style={{ position: 'relative', height: 280 }}>
      <ChartView
        type="bar"
        role="img"
        aria-label={`Revenue, operating expenses and net profit per month, ${months.length} months`}
        data={{
          labels: months.map((m) => monthLabel.format(new Date(`${m.month}-15T00:00:00Z`))),
          datasets: [
            { type: 'bar' as const, label: 'Revenue', data: months.map((m) => Number(m.revenue)), backgroundColor: '#4c6ef5' },
            {
              type: 'bar' as const,
              label: 'Operating expenses',
              data: months.map((m) => Number(m.operating_expenses)),
              backgroundColor: '#fa5252',
            },
            {
              type: 'line' as const,
              label: 'Net profit',
              data: months.map((m) => Number(m.net_profit)),
              borderColor: '#2b8a3e',
              backgroundColor: '#2b8a3e',
              pointRadius: 3,
            },
          ],
        }}
        options={{
          maintainAspectRatio: false,
          animation: false,
          interaction: { mode: 'index', intersect: false },
          scales: { y: { ticks: { callback: (value) => money(String(value), currency) } } },
          plugins: { tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${money(String(item.raw), currency)}` } } },
        }}
      />
    </div>
  );
}
