"""A LoRA named as a folder, a launch option, a printed argument or an extension's name is not a training run
(training_workload): stable-diffusion web UIs and koboldcpp print those on every inference launch.

The class, from development cases: Haoming02/sd-webui-forge-classic#224 (`--lora-dir '...\\models\\Lora'`
on a Forge launch line, an SDPA choice, no training), koboldcpp's argument dump `lora=None` (LostRuins/koboldcpp#936, an inference
server), SD.Next's `Extensions: enabled=['Lora', ...]` (vladmandic/sdnext#3108, image generation). A LoRA said in words stays read.
"""
import pytest

from rocm_doctor.ingest import ingest_text


def _context(text: str) -> list:
    fact = ingest_text(text).facts.symptoms.context
    return list(fact.value or [])


@pytest.mark.parametrize(
    "text",
    [
        "Launching Web UI with arguments: --ckpt-dir 'D:\\AI\\webui\\models\\Stable-diffusion' --lora-dir 'D:\\AI\\webui\\models\\Lora'\n",
        "Launching Web UI with arguments: --lora-dir /srv/sd/models/Lora/ --medvram\n",
        "Namespace(model='x.gguf', blasbatchsize=512, blasthreads=5, lora=None, noshift=False)\n",
        "12:11:51-736891 INFO     Extensions: enabled=['Lora', 'sd-extension-chainner', 'sdnext-modernui']\n",
    ],
)
def test_a_lora_folder_option_or_extension_name_is_not_training(text: str) -> None:
    assert "training_workload" not in _context(text)


@pytest.mark.parametrize(
    "text",
    [
        "I am using OneTrainer to train Lora for SDXL.\n",
        "- Model: SDXL LoRA\n",
        "The LoRA run crashes after the first epoch.\n",
    ],
)
def test_a_lora_said_in_words_still_reads_as_training(text: str) -> None:
    assert "training_workload" in _context(text)
