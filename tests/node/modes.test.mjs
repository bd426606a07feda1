// The form's mode rules (web/js/modes.js) and "the latest request wins" (web/js/latest.js), as pure
// functions of the state: what each transition moves, and what it leaves alone.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from './paths.mjs';

const js = (name) => import(join(ROOT, 'web', 'js', name));
const { initialState, stateFromHash } = await js('state.js');
const modes = await js('modes.js');
const { latestWins, latestWinsByKind } = await js('latest.js');

describe('modes', () => {
  test('a link says its modes by the paths it carries', () => {
    const of = (hash) => modes.inferModes(new URLSearchParams(hash));
    assert.deepEqual(of('model.preset=llama-2-7b'), { model: 'preset', data: 'tokens', gpus: 'count', price: 'none' });
    assert.deepEqual(of('model.hidden=4096&training.samples=1000&budget.deadline_days=30&pricing.per_gpu_month=900'),
      { model: 'architecture', data: 'samples', gpus: 'deadline', price: 'per_gpu_month' });
    assert.equal(of('model.params=7e9&training.tokens=chinchilla').data, 'chinchilla');
    assert.equal(of('model.params=7e9').model, 'params');
  });

  test('a monthly budget opens a monthly price, from a link or the selector, and the price may then close', () => {
    assert.equal(stateFromHash('#budget.per_month=10000').modes.price, 'per_gpu_month');
    const state = initialState();
    modes.chooseMode(state, 'gpus', 'per_month');
    assert.equal(state.modes.price, 'per_gpu_month');
    modes.chooseMode(state, 'price', 'none');
    assert.equal(state.modes.price, 'none');
    assert.equal(state.modes.gpus, 'per_month');
  });

  test('choosing another model mode drops an imported architecture\'s keys; no price drops the picked offer', () => {
    const state = initialState();
    state.extra.set('model.qkv_bias', 'true');
    state.extra.set('pricing.offer', 'aws-p5');
    state.extra.set('training.dropout', 'true');
    modes.chooseMode(state, 'model', 'preset');
    assert.deepEqual([...state.extra.keys()], ['pricing.offer', 'training.dropout']);
    modes.chooseMode(state, 'price', 'none');
    assert.deepEqual([...state.extra.keys()], ['training.dropout']);
  });

  test('a GPU count given plans on that count; an offer\'s price sets its mode', () => {
    const state = stateFromHash('#budget.deadline_days=30');
    modes.impliedMode(state, 'training.tokens');
    assert.equal(state.modes.gpus, 'deadline');
    modes.impliedMode(state, 'hardware.count');
    assert.equal(state.modes.gpus, 'count');
    modes.choosePriceOf(state, { per_gpu_month: 9800 });
    assert.equal(state.modes.price, 'per_gpu_month');
    assert.equal(state.values.get('pricing.per_gpu_month'), '9800');
    modes.choosePriceOf(state, { per_gpu_hour: 2.5, per_gpu_month: 1800 });
    assert.equal(state.modes.price, 'per_gpu_hour');
    assert.equal(state.values.get('pricing.per_gpu_hour'), '2.5');
  });

  test('fine-tuning brings its own data and pre-training takes it back, leaving what was typed', () => {
    const state = initialState();
    modes.enterWay(state, 'finetune');
    assert.equal(state.modes.data, 'samples');
    assert.equal(state.values.get('training.samples'), '52002');
    modes.enterWay(state, 'pretrain');
    assert.equal(state.modes.data, 'tokens');
    const typed = initialState();
    typed.values.set('training.tokens', '3e11');
    modes.enterWay(typed, 'finetune');
    assert.equal(typed.modes.data, 'tokens');
    assert.equal(typed.values.get('training.tokens'), '3e11');
  });

  test('a budget that nobody filled in gives way to a count to compare; its empty monthly price closes on leaving', () => {
    const state = initialState();
    modes.enterWay(state, 'budget');
    assert.deepEqual([state.modes.gpus, state.modes.price, modes.wayOf(state)], ['per_month', 'per_gpu_month', 'budget']);
    modes.enterWay(state, 'compare');
    assert.deepEqual([state.modes.gpus, state.modes.price, modes.wayOf(state)], ['count', 'none', 'compare']);
    const filled = initialState();
    modes.enterWay(filled, 'budget');
    filled.values.set('budget.per_month', '10000');
    modes.enterWay(filled, 'compare');
    assert.equal(filled.modes.gpus, 'per_month');
  });
});

describe('the latest request wins', () => {
  test('a ticket is current until the next start, and each kind keeps its own sequence', () => {
    const estimates = latestWins();
    const first = estimates.start();
    assert.equal(first.current(), true);
    const second = estimates.start();
    assert.deepEqual([first.current(), second.current()], [false, true]);
    const byKind = latestWinsByKind();
    const scaling = byKind.start('scaling');
    const compare = byKind.start('compare');
    assert.deepEqual([scaling.current(), compare.current()], [true, true]);
    byKind.start('scaling');
    assert.deepEqual([scaling.current(), compare.current()], [false, true]);
  });
});
