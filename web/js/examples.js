// The source articles' claims (docs/seeds.md), each as a link into the calculator with the data
// sizes the article leaves out stated, and the engine's own answer beside the claim. Nothing here is
// a number the engine computes: the page computes those when the list opens. The claims are the
// articles' words (zh; shortened with ……, or a table row in words) and their translation (en); the
// notes say what was assumed and why, and tests/node/engine.test.mjs asserts what they state.
// The articles by title, as a reader knows them (the first line of each; article 003 has none, so
// its opening sentence's subject).
export const ARTICLE_TITLES = {
  '000': { zh: '大模型预训练需要多少GPU小时？详细估算与分析', en: 'How many GPU-hours does LLM pre-training take? A detailed estimate' },
  '001': { zh: '深度学习模型训练中的GPU算力需求分析：从BERT到GPT', en: 'GPU compute needs in deep learning training: from BERT to GPT' },
  '003': { zh: '大模型微调需要多少GPU算力', en: 'How much GPU compute does fine-tuning a large model take' },
  '004': { zh: '深度学习模型训练成本与时间大揭秘：1000 亿参数模型在不同 GPU 配置下的表现', en: 'Training cost and time revealed: a 100-billion-parameter model on different GPU configurations' },
};

export const EXAMPLES = [
  {
    id: 'seed001-7b',
    seed: '001',
    hash: 'model.params=7e9&training.tokens=chinchilla&hardware.gpu=a100-80gb-sxm&hardware.count=8&strategy.mfu=0.4',
    claim: {
      zh: '7B 模型、20 倍参数量的 token，8×A100、约 40% 利用率：≈68 天。',
      en: 'A 7B model on 20 tokens per parameter, 8×A100 at about 40%: ≈68 days.',
    },
    note: {
      zh: '文章的天数就是 6·N·T 按 A100 的 312 TFLOPS BF16 峰值、40% 利用率算出的结果，本计算器给出同样的天数。',
      en: 'The article\'s days are 6·N·T at 40% of the A100\'s 312 TFLOPS BF16 peak; the calculator gives the same days.',
    },
  },
  {
    id: 'seed003-bert',
    seed: '003',
    hash: 'model.preset=bert-base&training.type=finetune&training.samples=392702&training.epochs=3&training.seq_len=128'
      + '&training.global_batch_sequences=32&training.objective=classification&hardware.gpu=v100-sxm2-32gb&hardware.count=1'
      + '&strategy.precision=fp16',
    show: ['batches_per_second'],
    claim: {
      zh: 'BERT（Base版）……每个批次 16 到 32 个样本……V100 每秒钟大约可以进行 50 到 100 个 batch……一般需要 2 到 3 天。',
      en: 'BERT-base: batches of 16 to 32 samples; a V100 runs about 50 to 100 batches a second; fine-tuning takes 2 to 3 days.',
    },
    note: {
      zh: '文章没有给出数据量。这里按 BERT 论文的 GLUE 设置：MNLI（39.27 万对句子）、批次 32×128 token、3 轮。每秒 100 个这样的批次超过 V100 的峰值算力；按这个速度 2–3 天要上亿条样本，远超常见的微调数据集。',
      en: 'The article states no data size. Here: the BERT paper\'s GLUE setting, MNLI (392,702 pairs), batches of 32×128 tokens, 3 epochs. 100 such batches a second exceed the V100\'s peak; at that rate 2–3 days would take hundreds of millions of examples, far more than a fine-tuning set.',
    },
  },
  {
    id: 'seed003-gpt2-v100',
    seed: '003',
    hash: 'model.preset=gpt2&training.type=finetune&training.dataset_gb=100&training.text=english&training.seq_len=1024'
      + '&training.global_batch_sequences=32&hardware.gpu=v100-sxm2-32gb&hardware.count=1&strategy.precision=fp16',
    claim: {
      zh: '以 GPT-2 为例……训练数据集为 100GB……V100 显卡进行单卡训练，可能需要 3 到 4 天的时间完成微调。',
      en: 'GPT-2 fine-tuned on a 100 GB dataset on one V100: 3 to 4 days.',
    },
    note: {
      zh: 'GPT-2 小型版有 1.24 亿参数（文章写 1.5 亿）。100 GB 英文约 250 亿 token；3–4 天需要 V100 峰值的一半左右，高于计算器对这个小模型在 V100 上预测的利用率。',
      en: 'GPT-2 small has 124M parameters (the article says 150M). 100 GB of English is about 25B tokens; 3–4 days would need about half the V100\'s peak, more than the calculator predicts for so small a model on a V100.',
    },
  },
  {
    id: 'seed003-gpt2-a100',
    seed: '003',
    hash: 'model.preset=gpt2&training.type=finetune&training.dataset_gb=100&training.text=english&training.seq_len=1024'
      + '&training.global_batch_sequences=32&hardware.gpu=a100-80gb-sxm&hardware.count=1',
    claim: {
      zh: 'GPT-2（小型版）……使用一张 NVIDIA A100 显卡，可以在一天之内完成微调。',
      en: 'GPT-2 small on one A100: fine-tuned within a day.',
    },
    note: {
      zh: '文章没有给出数据量；这里用它在后文举例的 100 GB。一天之内只适用于约 40% 的数据量。',
      en: 'No data size is given; here the article\'s own 100 GB from its later example. Within a day holds for about 40% of it.',
    },
  },
  {
    id: 'seed003-gpt3-full',
    seed: '003',
    hash: 'model.preset=gpt-3-175b&training.type=finetune&training.samples=10000&training.seq_len=2048'
      + '&hardware.gpu=a100-80gb-sxm&hardware.count=8',
    claim: {
      zh: 'GPT-3……在进行微调时，至少需要 4 到 8 张 NVIDIA A100 显卡才能在合理的时间内完成训练。',
      en: 'GPT-3 (175B): fine-tuning needs at least 4 to 8 A100s to finish in reasonable time.',
    },
    note: {
      zh: '全参数微调：BF16 权重就有 350 GB，加上梯度和 Adam 状态约每参数 16 字节（2.8 TB），8×80 GB 放不下。',
      en: 'Full fine-tuning: the bf16 weights alone are 350 GB; with gradients and Adam\'s states about 16 bytes per parameter (2.8 TB), which 8×80 GB cannot hold.',
    },
  },
  {
    id: 'seed003-gpt3-qlora',
    seed: '003',
    hash: 'model.preset=gpt-3-175b&training.type=finetune&training.method=qlora&training.samples=10000&training.seq_len=2048'
      + '&hardware.gpu=a100-80gb-sxm&hardware.count=8',
    claim: {
      zh: '同上：4 到 8 张 A100。',
      en: 'As above: 4 to 8 A100s.',
    },
    note: {
      zh: '只有冻结权重的方法（LoRA、QLoRA）才接近：QLoRA 的 4 位权重约 100 GB（bitsandbytes 默认的 NF4；双重量化约 90 GB），8 张 A100 放得下（1 万条 2048 token 的样本）；LoRA 的 350 GB BF16 权重分到 8 张卡上也勉强放得下。',
      en: 'Only methods that freeze the weights (LoRA, QLoRA) come close: QLoRA\'s 4-bit weights are about 100 GB (bitsandbytes\' default NF4; 90 GB with double quantisation), which fit on 8 A100s (10,000 samples of 2,048 tokens); LoRA\'s 350 GB of bf16 weights, sharded over 8 GPUs, just fit too.',
    },
  },
  {
    id: 'seed004-cloud-a100-x',
    seed: '004',
    hash: 'model.params=1e11&training.total_flops=1e22&hardware.gpu.name=Cloud-A100%20X&hardware.gpu.memory_gb=83'
      + '&hardware.gpu.fp16_tflops=539.8&budget.per_month=10000&pricing.per_gpu_month=1999.99&pricing.currency=CNY'
      + '&strategy.precision=fp16&strategy.mfu=1',
    claim: {
      zh: '每月 1 万元预算，Cloud-A100 X（1999.99 元/月）：可租用约 5 台，10^22 FLOPs 约 43 天。',
      en: '10,000 CNY a month on Cloud-A100 X (1,999.99 CNY a month): 5 GPUs, about 43 days for 10^22 FLOPs.',
    },
    note: {
      zh: '文章按 100% 利用率和线性扩展计算；实际约 35–55%，天数是 2–3 倍。文章也没有核对显存：1000 亿参数远超 5×83 GB。比较所有报价请打开“比较 GPU”。',
      en: 'The article assumes 100% utilisation and perfect scaling; real runs reach 35–55%, two to three times the days. Nor does it check memory: 10^11 parameters need far more than 5 × 83 GB. Open "Compare GPUs" for every offer.',
    },
  },
  {
    id: 'seed000-gpt3',
    seed: '000',
    hash: 'model.preset=gpt-3-175b&training.tokens=3e11&hardware.gpu=v100-sxm2-32gb&hardware.count=1024',
    show: ['gpu_hours'],
    claim: {
      zh: '以 GPT-3 为例，训练它的预估 GPU 小时数达到了数十万甚至更多。',
      en: 'GPT-3: its training is estimated at hundreds of thousands of GPU-hours or more.',
    },
    note: {
      zh: 'GPT-3 用 3000 亿 token 训练（Brown 等 2020），这里在 1024 张 V100 上。',
      en: 'GPT-3 was trained on 300B tokens (Brown et al. 2020); here on 1,024 V100s.',
    },
  },
  {
    id: 'seed000-bert',
    seed: '000',
    hash: 'model.preset=bert-base&training.steps=1e6&training.global_batch_tokens=131072&training.seq_len=512'
      + '&hardware.gpu=v100-sxm2-32gb&hardware.count=16&strategy.precision=fp16',
    show: ['gpu_hours'],
    claim: {
      zh: '一般来说，BERT 模型的预训练可能只需要数千个 GPU 小时。',
      en: 'BERT pre-training may need only a few thousand GPU-hours.',
    },
    note: {
      zh: 'BERT 预训练是 100 万步、批次 256×512 token（Devlin 等 2019），不是《深度学习模型训练中的GPU算力需求分析》一文说的“1亿步”。其中 90% 的步数实际只用 128 token，所以这里按 512 算是上限。1.1 亿参数的 BERT-Base 在 V100 上是几百 GPU 小时；参数约为其 3 倍的 BERT-Large 超过一千。',
      en: 'BERT pre-training ran 1M steps of 256×512 tokens (Devlin et al. 2019), not the "100 million steps" of the article "GPU compute needs in deep learning training"; 90% of those steps used 128 tokens, so 512 throughout is an upper bound. For the 110M-parameter BERT-Base that is hundreds of V100 GPU-hours; BERT-Large, with 3 times the parameters, takes over a thousand.',
    },
  },
  {
    id: 'seed000-resnet',
    seed: '000',
    hash: 'model.preset=resnet-50&training.images=1281167&training.epochs=90&hardware.gpu=v100-sxm2-32gb&hardware.count=8',
    show: ['gpu_hours'],
    claim: {
      zh: '处理高分辨率图像需要更多的计算资源，尤其是在训练卷积神经网络（CNN）时。',
      en: 'High-resolution images need more compute, especially when training convolutional networks (CNNs).',
    },
    note: {
      zh: 'ResNet-50 在 ImageNet-1k（128 万张图）上训练 90 轮，每张 224 像素图 41 亿次乘加；分辨率加倍，计算量变为 4 倍。',
      en: 'ResNet-50 on ImageNet-1k (1.28M images) for 90 epochs at 4.1 GMACs per 224-pixel image; doubling the resolution quadruples the compute.',
    },
  },
];
