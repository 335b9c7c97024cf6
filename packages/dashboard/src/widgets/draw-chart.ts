/**
 * A uPlot chart drawn into its box at the box's width (never under `minWidth`), drawn again at the
 * new width when the box is resized; what is returned removes it, for the effect that drew it.
 * The bar charts (histogram.tsx, time-chart.tsx) give only their options and data.
 */
import uPlot from 'uplot';

export function drawChart(
  box: HTMLElement,
  options: Omit<uPlot.Options, 'width'>,
  data: uPlot.AlignedData,
  minWidth: number,
): () => void {
  const width = () => Math.max(box.clientWidth, minWidth);
  const plot = new uPlot({ ...options, width: width() }, data, box);
  const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: options.height }));
  resize.observe(box);
  return () => {
    resize.disconnect();
    plot.destroy();
  };
}
