import labels from '@dukkan/contract/texts/field-labels.en.json';
import { withFieldLabels } from '../../with-field-labels.ts';
import texts from './en.json';

/** The signed-in screens' English texts, the fields' names included. */
export default withFieldLabels(texts, labels);
