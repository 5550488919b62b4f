import labels from '@dukkan/contract/texts/field-labels.ar.json';
import { withFieldLabels } from '../../with-field-labels.ts';
import texts from './ar.json';

/** The signed-in screens' Arabic texts, the fields' names included. */
export default withFieldLabels(texts, labels);
