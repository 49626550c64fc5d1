import { isStandardScale } from '@sledge/protocol';
import type { RunOptionsProps } from '../types.js';
import { engineDoes, useCapabilities } from '../../state/capabilities.js';
import { BUILD_FIELDS, REFRESH_FIELDS, RUN_FIELDS, SCALE_PRESETS, scaleHint, streamsHint, typedScale } from './form.js';

/** The scale factor's presets: the test sizes and the standard SFs, one click each. */
function ScalePresets({ values, setValue }: Pick<RunOptionsProps, 'values' | 'setValue'>) {
  const sf = typedScale(values['scaleFactor']);
  return (
    <div className="field presets" role="group" aria-label="Scale factor presets">
      <span className="help">Scale factor presets</span>
      <div className="preset-buttons">
        {SCALE_PRESETS.map((s) => (
          <button
            key={s}
            type="button"
            className={`small${sf === s ? ' active' : ''}`}
            aria-pressed={sf === s}
            title={isStandardScale(s) ? `SF ${s} (standard)` : `SF ${s}: non-standard, for tests`}
            onClick={() => setValue('scaleFactor', String(s))}
            data-testid={`sf-${s}`}
          >
            {s}
            {!isStandardScale(s) && <span className="muted">*</span>}
          </button>
        ))}
      </div>
    </div>
  );
}

/** The Schema page's TPROC-H fields: scale factor (with presets and the non-standard hint) and build VUs. */
export function TprochBuildOptions({ field, values, setValue }: RunOptionsProps) {
  return (
    <>
      {field('scaleFactor', scaleHint(values['scaleFactor']))}
      <ScalePresets values={values} setValue={setValue} />
      {BUILD_FIELDS.filter((n) => n !== 'scaleFactor').map((n) => field(n))}
    </>
  );
}

/** The Run page's TPROC-H fields: HammerDB's TPROC-H driver options, then the refresh functions. DOP only where the engine has a degree of parallelism. */
export function TprochRunOptions({ engine, field, values }: RunOptionsProps) {
  const throughput = values['mode'] === 'throughput';
  const caps = useCapabilities();
  const shown = RUN_FIELDS.filter((n) => n !== 'dop' || engineDoes(engine, 'tproch', 'dop', caps));
  return (
    <>
      <div className="form-grid">
        {shown.map((n) =>
          n === 'scaleFactor'
            ? field(n, `The SF the schema was built with (Schema page); a different one is corrected by the server, with a message. ${isStandardScale(typedScale(values[n]) ?? 1) ? '' : 'Non-standard SF.'}`.trim())
            : n === 'streams'
              ? field(n, streamsHint(values['streams'], values['scaleFactor']))
              : field(n),
        )}
      </div>
      <fieldset className="mix">
        <legend>Refresh functions</legend>
        <p className="help">
          RF1 inserts new sales (SF·1500 orders with their line items), RF2 deletes as many old ones.{' '}
          {throughput
            ? 'In a throughput test a refresh stream runs the update sets beside the query streams, waiting the trickle delay before each order.'
            : values['mode'] === 'performance'
              ? 'A performance test runs a power test (RF1, the 22 queries, RF2), then a throughput test whose refresh stream runs the update sets beside the query streams.'
              : 'In a power test RF1 runs before the 22 queries and RF2 after them.'}
        </p>
        <div className="form-grid">{REFRESH_FIELDS.map((n) => field(n))}</div>
      </fieldset>
    </>
  );
}
