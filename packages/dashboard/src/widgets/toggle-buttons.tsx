/**
 * A choice of one among a few, as a row of pressed and unpressed buttons (a chart's time range,
 * groups or lines): the group named for screen readers by a hidden legend, the chosen one
 * `aria-pressed`.
 */
export function ToggleButtons<T extends string>({
  legend,
  options,
  value,
  onChange,
  className,
}: {
  legend: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  className: string;
}) {
  return (
    <fieldset className={className}>
      <legend className="visually-hidden">{legend}</legend>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className={`button ${value === option.value ? 'button-primary' : 'button-secondary'}`}
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}
